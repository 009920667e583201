/**
 * The server side of Ingot's shared-memory IPC transport (docs/ipc.md): {@link io.ingot.server.ipc.IpcServer} serves
 * an {@link io.ingot.api.InferenceCore} to client processes through {@code /dev/shm/ingot-NAME}. The layout and
 * frames live in the ipc module ({@code io.ingot.ipc}), the Java client in the ipc-client module
 * ({@code io.ingot.ipc.client}).
 */
package io.ingot.server.ipc;
