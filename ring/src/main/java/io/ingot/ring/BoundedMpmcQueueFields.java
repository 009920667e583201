package io.ingot.ring;

import io.ingot.agent.CacheLinePadding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The counters of a {@link BoundedMpmcQueue}, each on a cache line of its own (as {@link RequestRingFields} lays
 * out the request ring's): producers compare-and-set the {@code tail}, consumers the {@code head}, so a pool that one
 * thread fills while another drains does not bounce one line between them.
 */
final class BoundedMpmcQueueFields
{
    private BoundedMpmcQueueFields()
    {
    }

    /** What producers write. */
    abstract static class Tail extends CacheLinePadding
    {
        static final VarHandle TAIL;

        static
        {
            try
            {
                TAIL = MethodHandles.lookup().findVarHandle(Tail.class, "tail", long.class);
            }
            catch (final ReflectiveOperationException ex)
            {
                throw new ExceptionInInitializerError(ex);
            }
        }

        /** The next sequence to fill. */
        long tail;
    }

    /** 64 bytes between the producers' line and the consumers'. */
    abstract static class PadAfterTail extends Tail
    {
        byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
        byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
        byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
        byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
    }

    /** What consumers write. */
    abstract static class Head extends PadAfterTail
    {
        static final VarHandle HEAD;

        static
        {
            try
            {
                HEAD = MethodHandles.lookup().findVarHandle(Head.class, "head", long.class);
            }
            catch (final ReflectiveOperationException ex)
            {
                throw new ExceptionInInitializerError(ex);
            }
        }

        /** The next sequence to take. */
        long head;
    }

    /** 64 bytes after the consumers' line. */
    abstract static class PadAfterHead extends Head
    {
        byte p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
        byte p216, p217, p218, p219, p220, p221, p222, p223, p224, p225, p226, p227, p228, p229, p230, p231;
        byte p232, p233, p234, p235, p236, p237, p238, p239, p240, p241, p242, p243, p244, p245, p246, p247;
        byte p248, p249, p250, p251, p252, p253, p254, p255, p256, p257, p258, p259, p260, p261, p262, p263;
    }
}
