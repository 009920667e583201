package io.ingot.scheduler;

import io.ingot.api.InferenceRequest;

/**
 * Triton's texts for a request refused or ended before it ran, word for word (Triton's
 * {@code src/scheduler_utils.cc}, {@code dynamic_batch_scheduler.cc}), in one place for the scheduler, the
 * instances and the ensembles. Stateless.
 */
public final class RefusalMessages
{
    private RefusalMessages()
    {
    }

    /**
     * @param request a request
     * @return its id, or Triton's {@code <id_unknown>}
     */
    public static String idOf(final InferenceRequest request)
    {
        final String id = request.id();
        return id.isEmpty() ? "<id_unknown>" : id;
    }

    /**
     * @param request a request the model's scheduler refuses or ends because it stops
     * @return Triton's message
     */
    public static String stopping(final InferenceRequest request)
    {
        return "[request id: " + idOf(request)
            + "] Server is stopping, scheduler for model has stopped accepting new inference requests";
    }

    /**
     * @param request a request its level's {@code max_queue_size} refuses
     * @return Triton's message
     */
    public static String queueFull(final InferenceRequest request)
    {
        return "[request id: " + idOf(request) + "] Exceeds maximum queue size";
    }

    /**
     * @param request a request its caller cancelled
     * @param model   the model's name
     * @return Triton's message
     */
    public static String cancelled(final InferenceRequest request, final String model)
    {
        return "[request id: " + idOf(request) + "] Request for model '" + model + "' was cancelled";
    }
}
