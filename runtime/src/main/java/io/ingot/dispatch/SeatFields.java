package io.ingot.dispatch;

import io.ingot.agent.CacheLinePadding;

/**
 * The flags of a {@link Seat} between cache-line padding (Agrona's manner, as {@link ModelSchedulerFields}). Producers
 * read a busy model's seats on every submit that finds no watcher; without the padding the seat shares a line with
 * whatever was allocated next to it — the owning instance's own fields, which it writes on every batch — and each of
 * those reads misses.
 */
final class SeatFields
{
    private SeatFields()
    {
    }

    /** What the scheduler's threads read and the owning instance writes. */
    abstract static class Hot extends CacheLinePadding
    {
        volatile boolean following;
        volatile boolean called;
        /** Who runs the instance's step: {@code Seat.FREE}, {@code Seat.OWNER} or {@code Seat.BORROWED}. */
        volatile int runner;
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
