package io.ingot.dispatch;

import io.ingot.agent.Bell;
import io.ingot.agent.CacheLinePadding;
import io.ingot.scheduler.BatchPolicy;

/**
 * The hot fields of a {@link ModelScheduler} with the padding that protects them, laid out in Agrona's manner: a
 * superclass's fields come before a subclass's, so padding classes in the chain put each group on cache lines of its
 * own. The padding is bytes, not longs: HotSpot fills the alignment holes of a superclass with a subclass's fields,
 * and byte padding leaves no hole a hot field of another group could land in (checked with
 * {@code Unsafe.objectFieldOffset} on JDK 25: the producers' fields at offsets 76–91, the holder's at 156–167).
 * Producers read the first group on every submit ({@link ProducerRead}); the role holder writes the second after
 * every drain ({@link HolderWritten}). Without the padding a drain would invalidate the line every producer reads
 * next.
 */
final class ModelSchedulerFields
{
    private ModelSchedulerFields()
    {
    }

    /** Read by every producer's submit; written rarely (a watcher starting or ending, a stop, the timekeeper). */
    abstract static class ProducerRead extends CacheLinePadding
    {
        volatile Bell watcher;
        /** Producers are refused: set by a stop, and by a retirement (a reload), which still runs the queue. */
        volatile boolean refusing;
        volatile boolean stopping;
        volatile boolean sweepRequested;
        volatile long timekeeperWakeNs = BatchPolicy.NO_DEADLINE;
    }

    /** 64 bytes between the two groups. */
    abstract static class PadBetween extends ProducerRead
    {
        byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
        byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
        byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
        byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
    }

    /** Written by the role holder after every drain and dispatch. */
    abstract static class HolderWritten extends PadBetween
    {
        volatile int queued;
    }

    /** 64 bytes after them, before the scheduler's own (final) fields. */
    abstract static class PadAfter extends HolderWritten
    {
        byte p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
        byte p216, p217, p218, p219, p220, p221, p222, p223, p224, p225, p226, p227, p228, p229, p230, p231;
        byte p232, p233, p234, p235, p236, p237, p238, p239, p240, p241, p242, p243, p244, p245, p246, p247;
        byte p248, p249, p250, p251, p252, p253, p254, p255, p256, p257, p258, p259, p260, p261, p262, p263;
    }
}
