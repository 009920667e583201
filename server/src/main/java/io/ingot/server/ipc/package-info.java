/**
 * The server side of Ingot's shared-memory IPC transport (docs/ipc.md): {@link io.ingot.server.ipc.IpcServer} serves
 * an {@link io.ingot.api.InferenceCore} to client processes through {@code /dev/shm/ingot-NAME}. The layout, frames
 * and the client live in the ring module ({@code io.ingot.ipc}).
 */
package io.ingot.server.ipc;
