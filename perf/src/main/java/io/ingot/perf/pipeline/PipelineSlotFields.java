package io.ingot.perf.pipeline;

import io.ingot.agent.CacheLinePadding;

/**
 * The completion fields of a {@link PipelineSlot} between cache-line padding. The caller writes them when it submits
 * and the pipeline when it completes, once per request; without the padding they share a line with whatever was
 * allocated next to them — a neighbouring slot (the baselines allocate slots back to back) or the pipeline's own
 * per-slot objects (Ingot's request) — and the pipeline's reads of those miss. Every pipeline's slots are padded
 * alike.
 */
final class PipelineSlotFields
{
    private PipelineSlotFields()
    {
    }

    /** What the caller and the pipeline both write. */
    abstract static class Hot extends CacheLinePadding
    {
        volatile boolean done = true;
        volatile String failure;
    }

    /** 64 bytes after them. */
    abstract static class PadAfter extends Hot
    {
        byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
        byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
        byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
        byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
    }
}
