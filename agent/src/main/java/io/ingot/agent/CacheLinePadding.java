package io.ingot.agent;

/**
 * 64 bytes of padding, the first class of a hierarchy that keeps hot fields on cache lines of their own (Agrona's
 * manner: a superclass's fields are laid out before a subclass's). Bytes rather than longs, so HotSpot finds no
 * alignment hole to put a subclass's field in. A subclass declares the hot fields, and a padding class of its own
 * follows them. Used by {@link ThreadBell}, by the ring module's {@code RequestRing} and {@code BoundedMpmcQueue},
 * by the runtime's model scheduler and seats, and by the benchmark harness's {@code PipelineSlot}. (The api module's
 * {@code RequestFlight} pads itself the same way: the api depends on no other module of Ingot.)
 */
public abstract class CacheLinePadding
{
    /** For subclasses only. */
    protected CacheLinePadding()
    {
    }

    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}
