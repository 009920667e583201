/**
 * The Java client of Ingot's shared-memory IPC transport (docs/ipc.md, "Usage"): {@link io.ingot.ipc.client.IpcClient}
 * connects to {@code /dev/shm/ingot-NAME}, allocates {@link io.ingot.ipc.client.IpcTensor}s in its slab, submits
 * {@link io.ingot.ipc.client.IpcRequest}s and reads {@link io.ingot.ipc.client.IpcResponse}s whose outputs stay in
 * shared memory until released.
 */
package io.ingot.ipc.client;
