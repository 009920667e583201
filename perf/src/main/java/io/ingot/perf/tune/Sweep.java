package io.ingot.perf.tune;

import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelConfigJson;
import io.ingot.api.ModelLoadOverrides;
import io.ingot.config.proto.ModelConfig;
import io.ingot.perf.InProcessTarget;
import io.ingot.perf.LevelResult;
import io.ingot.perf.LoadProfiler;
import io.ingot.perf.LoadTarget;
import io.ingot.perf.PerfException;
import io.ingot.perf.RequestInputs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Measures candidates one after another on one core of this process (in {@code EXPLICIT} model control): each is
 * loaded with its configuration as an override of the model's {@code config.pbtxt} (the file on disk is not
 * touched), then driven by the perf load generator at one load level. A candidate that fails to load, or whose
 * every request fails, is recorded with its error and the sweep goes on. Not thread-safe; one sweep at a time.
 *
 * @param core        the core, with the model loaded as its repository has it
 * @param repository  the repository, for messages
 * @param model       the model
 * @param mode        closed loop (concurrency) or open loop (request rate)
 * @param level       the concurrency or the request rate
 * @param settings    measurement settings of each candidate
 * @param shapes      {@code --shape} values
 * @param values      {@code --input-value} constants
 * @param budgetUs    the latency budget, microseconds
 */
public record Sweep(InferenceCore core, String repository, String model, LoadProfiler.Mode mode, double level,
    LoadProfiler.Settings settings, Map<String, long[]> shapes, Map<String, String> values, double budgetUs)
{
    private static final LoadProfiler.Progress SILENT = (levelIndex, phase) ->
    {
    };

    /**
     * Measures every candidate; the first is the model as loaded now (it is not reloaded).
     *
     * @param file       the model's configuration file as parsed
     * @param completed  the model's configuration as the core completed it
     * @param candidates the candidates, the current configuration first
     * @param onResult   receives each result as soon as it is measured
     * @return the results, in order
     */
    public List<CandidateResult> run(final ModelConfig file, final ModelConfig completed,
        final List<Candidate> candidates, final Consumer<CandidateResult> onResult)
    {
        final List<CandidateResult> results = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++)
        {
            final Candidate candidate = candidates.get(i);
            final CandidateResult result = measure(i + 1, candidate, i == 0 ? null
                : candidate.applyTo(file, completed));
            results.add(result);
            onResult.accept(result);
        }
        return results;
    }

    private CandidateResult measure(final int number, final Candidate candidate, final ModelConfig config)
    {
        if (config != null)
        {
            try
            {
                core.loadModel(model, ModelLoadOverrides.config(ModelConfigJson.toJson(config)));
            }
            catch (final InferenceException ex)
            {
                return new CandidateResult(number, candidate, null, "did not load: " + ex.getMessage(), budgetUs);
            }
        }
        final LoadTarget target;
        try
        {
            target = new InProcessTarget(core, repository, model, "");
        }
        catch (final PerfException ex)
        {
            return new CandidateResult(number, candidate, null, ex.getMessage(), budgetUs);
        }
        try
        {
            final LoadTarget.ModelInfo info = target.modelInfo();
            final RequestInputs inputs = RequestInputs.resolve(model, "", info.maxBatchSize(), info.inputs(),
                info.outputs(), 1, shapes, values, 1);
            target.prepare(inputs);
            final LoadProfiler profiler = new LoadProfiler(target, mode, 1, settings, SILENT);
            final List<LevelResult> measured = profiler.run(List.of(level), result ->
            {
            });
            if (measured.isEmpty())
            {
                return new CandidateResult(number, candidate, null, "not measured", budgetUs);
            }
            return new CandidateResult(number, candidate, measured.get(0), profiler.firstError(), budgetUs);
        }
        catch (final PerfException ex)
        {
            if (ex.exitCode() == PerfException.USAGE)
            {
                throw ex;
            }
            return new CandidateResult(number, candidate, null, ex.getMessage(), budgetUs);
        }
        finally
        {
            target.close();
        }
    }
}
