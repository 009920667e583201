package io.ingot.agent;

/**
 * The fields of a {@link ThreadBell} between cache-line padding, in Agrona's manner (a superclass's fields come before
 * a subclass's; the padding is bytes, so HotSpot has no alignment hole to put a neighbour's field in): the line its
 * wakers read and write is shared with no other object. Checked with {@code Unsafe.objectFieldOffset} on JDK 25:
 * {@code rings}, {@code armed} and {@code waiter} at offsets 76–87, 64 padding bytes before and after.
 */
final class ThreadBellFields
{
    private ThreadBellFields()
    {
    }

    /** What wakers and the waiter share. */
    abstract static class Hot extends CacheLinePadding
    {
        volatile int rings;
        volatile int armed;
        volatile Thread waiter;
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
