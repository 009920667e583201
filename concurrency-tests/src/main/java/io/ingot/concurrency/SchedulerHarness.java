package io.ingot.concurrency;

import io.ingot.agent.ThreadBell;
import io.ingot.api.InferenceRequest;
import io.ingot.config.proto.ModelConfig;
import io.ingot.dispatch.ModelScheduler;
import io.ingot.dispatch.Seat;
import io.ingot.dispatch.Timekeeper;
import io.ingot.scheduler.BatchPolicy;
import io.ingot.scheduler.DefaultSchedulingPolicy;
import io.ingot.scheduler.DynamicBatchPolicy;
import io.ingot.scheduler.EndedRequests;
import io.ingot.scheduler.LevelAdmission;
import io.ingot.time.NanoClock;
import io.ingot.scheduler.PendingRequest;
import io.ingot.scheduler.SchedulerSettings;

/**
 * A model scheduler as the stress tests need it: a small intake ring, the default policy (or a dynamic one with a
 * queue limit), {@code seats} instances' seats, a timekeeper that never runs. Built fresh for every test iteration.
 */
final class SchedulerHarness
{
    final ModelScheduler scheduler;
    final Seat[] seats;
    final LevelAdmission admission;

    private SchedulerHarness(final SchedulerSettings settings, final int seatCount)
    {
        admission = new LevelAdmission(settings);
        final BatchPolicy policy = settings.dynamic() ? new DynamicBatchPolicy(settings, true, admission)
            : new DefaultSchedulingPolicy();
        scheduler = new ModelScheduler("stress", settings, policy, admission, 8, NanoClock.SYSTEM,
            new Timekeeper(new ThreadBell(), NanoClock.SYSTEM));
        seats = new Seat[seatCount];
        for (int i = 0; i < seatCount; i++)
        {
            seats[i] = new Seat();
        }
        scheduler.seat(seats);
    }

    /** @return a default-scheduled model with {@code seats} instances */
    static SchedulerHarness defaultScheduler(final int seats)
    {
        return new SchedulerHarness(SchedulerSettings.of(ModelConfig.newBuilder().setName("stress").build()), seats);
    }

    /** @return a dynamically batched model whose one level holds at most one queued request */
    static SchedulerHarness limitedToOne()
    {
        final ModelConfig config = ModelConfig.newBuilder().setName("stress").setMaxBatchSize(4)
            .setDynamicBatching(io.ingot.config.proto.ModelDynamicBatching.newBuilder()
                .setDefaultQueuePolicy(io.ingot.config.proto.ModelQueuePolicy.newBuilder().setMaxQueueSize(1)))
            .build();
        return new SchedulerHarness(SchedulerSettings.of(config), 1);
    }

    /**
     * What an idle instance does when it cannot lead: says it follows, tries the role once more, arms its bell and
     * looks a last time (the order of {@code InstanceAgent.doWork} and its idle strategy).
     *
     * @param index the instance's index
     * @return 0 it took the role, 1 it stays awake (its last look found the role free), 2 it would sleep
     */
    int follow(final int index)
    {
        final Seat seat = seats[index];
        seat.following(true);
        if (scheduler.tryAcquireRole(index + 1))
        {
            return 0;
        }
        seat.bell().arm();
        return scheduler.isStopping() || scheduler.isRoleFree() ? 1 : 2;
    }

    /**
     * What an instance that gave the role away (its policy said another instance's slots hold the work) does before
     * it sleeps: it follows, arms its bell and looks a last time — for a call only, since the free role is its own
     * doing (the order of {@code InstanceAgent.lead} and {@code InstanceAgent.hasWork}).
     *
     * @param index the instance's index
     * @return 1 it stays awake (it was called), 2 it would sleep
     */
    int sleepAfterYielding(final int index)
    {
        final Seat seat = seats[index];
        seat.following(true);
        seat.bell().arm();
        return seat.isCalled() || scheduler.isStopping() ? 1 : 2;
    }

    /**
     * The model stops and the stopping thread ends its queue, as a stop does.
     *
     * @return how many requests it ended
     */
    int stopAndEndQueue()
    {
        scheduler.stop();
        final EndedRequests ended = new EndedRequests();
        scheduler.endQueueAtStop(ended);
        return ended.count();
    }

    /** @return a request's bookkeeping as the runtime fills it before submitting */
    static PendingRequest pending(final String id)
    {
        final PendingRequest pending = new PendingRequest();
        pending.request = new InferenceRequest("stress").id(id);
        pending.listener = response -> { };
        pending.batchSize = 1;
        return pending;
    }
}
