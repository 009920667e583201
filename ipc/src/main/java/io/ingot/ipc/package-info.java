/**
 * Ingot's shared-memory IPC transport: the layout of the region file {@code /dev/shm/ingot-NAME}
 * ({@code *Descriptor} classes), flyweights over its header, client table and frames ({@code *Flyweight}), the
 * one-to-one rings in Agrona's record format ({@link io.ingot.ipc.IpcRingWriter}, {@link io.ingot.ipc.IpcRingReader}),
 * frame validation ({@link io.ingot.ipc.InferFrameDecoder}) and the slab allocator. The specification is
 * {@code docs/ipc.md}. This module is what both sides share: the server lives in the server module
 * ({@code io.ingot.server.ipc}), the Java client in the ipc-client module ({@code io.ingot.ipc.client}), and nothing
 * here knows either of them, the core or the in-process ring. The futex behind the doorbells is bound in
 * native-bindings ({@code io.ingot.libc.Futex}); a doorbell is a {@code Bell} of the agent module.
 */
package io.ingot.ipc;
