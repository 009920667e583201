/**
 * Ingot's shared-memory IPC transport: the layout of the region file {@code /dev/shm/ingot-NAME}
 * ({@code *Descriptor} classes), flyweights over its header, client table and frames ({@code *Flyweight}), the
 * one-to-one rings in Agrona's record format ({@link io.ingot.ipc.IpcRingWriter}, {@link io.ingot.ipc.IpcRingReader}),
 * frame validation ({@link io.ingot.ipc.InferFrameDecoder}) and the slab allocator. The specification is
 * {@code docs/ipc.md}; the server lives in the server module ({@code io.ingot.server.ipc}), the Java client in
 * {@link io.ingot.ipc.client}. The futex behind the doorbells is bound in native-bindings
 * ({@code io.ingot.libc.Futex}).
 */
package io.ingot.ipc;
