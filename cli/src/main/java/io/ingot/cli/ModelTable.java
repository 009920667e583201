package io.ingot.cli;

import io.ingot.repository.BackendRegistry;
import io.ingot.api.InferenceCore;
import io.ingot.api.InferenceException;
import io.ingot.api.ModelIndexEntry;
import io.ingot.config.BatchingParameters;
import io.ingot.config.ConfigException;
import io.ingot.config.proto.ModelConfig;
import io.ingot.config.proto.ModelDynamicBatching;
import io.ingot.config.proto.ModelInstanceGroup;
import io.ingot.repository.PreparedModel;
import io.ingot.repository.ScanResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The model table {@code serve} and {@code models validate} print: one row per model version with its platform or
 * backend, batching, instances and state; the reasons of models that are not ready follow the table, in full.
 */
final class ModelTable
{
    /**
     * One row.
     *
     * @param model     model name
     * @param version   version, or {@code "-"}
     * @param engine    platform, or backend when no platform is set
     * @param batching  batching summary
     * @param instances instance summary
     * @param state     {@code READY}, {@code UNAVAILABLE}, {@code VALID}, {@code INVALID}
     * @param reason    why it is not ready or not valid, empty otherwise
     * @param ok        true when the model is ready (or valid)
     */
    record Row(String model, String version, String engine, String batching, String instances, String state,
        String reason, boolean ok)
    {
    }

    private static final String[] HEADER = {"MODEL", "VERSION", "PLATFORM/BACKEND", "BATCHING", "INSTANCES", "STATE"};

    private final List<Row> rows;

    /**
     * @param rows the rows, in display order
     */
    ModelTable(final List<Row> rows)
    {
        this.rows = List.copyOf(rows);
    }

    /**
     * Reads every model of a core's repositories.
     *
     * @param core a running core
     * @return its table
     */
    static ModelTable of(final InferenceCore core)
    {
        final List<Row> rows = new ArrayList<>();
        for (final ModelIndexEntry entry : core.repositoryIndex(false))
        {
            final String version = entry.version().isEmpty() ? "-" : entry.version();
            ModelConfig config = null;
            if ("READY".equals(entry.state()))
            {
                try
                {
                    config = core.modelConfig(entry.name(), version.equals("-") ? -1 : Long.parseLong(version));
                }
                catch (final InferenceException | NumberFormatException e)
                {
                    config = null;
                }
            }
            final boolean ready = "READY".equals(entry.state());
            // The index gives a model directory that was never loaded only its name, as Triton's does.
            final String state = entry.state().isEmpty() ? "NOT LOADED" : entry.state();
            rows.add(config == null
                ? new Row(entry.name(), version, "-", "-", "-", state, entry.reason(), ready)
                : new Row(entry.name(), version, engine(config), batching(config), instances(config), state,
                    entry.reason(), ready));
        }
        return sorted(rows);
    }

    /**
     * Describes the result of a repository scan, without loading anything.
     *
     * @param scan    the scan
     * @param catalog the backends on the class path (a model no backend serves is invalid)
     * @return its table: one row per model, the selected versions together
     */
    static ModelTable of(final ScanResult scan, final BackendRegistry catalog)
    {
        final List<Row> rows = new ArrayList<>();
        for (final PreparedModel model : scan.models())
        {
            final ModelConfig config = model.config();
            final String versions = String.join(",", model.versions().stream()
                .map(version -> Long.toString(version.version())).toList());
            final String missing = catalog.missingBackend(config);
            rows.add(new Row(model.name(), versions, engine(config), batching(config), instances(config),
                missing == null ? "VALID" : "INVALID", missing == null ? "" : "model '" + model.name() + "': "
                + missing, missing == null));
        }
        scan.failures().forEach((name, reason) -> rows.add(new Row(name, "-", "-", "-", "-", "INVALID", reason,
            false)));
        return sorted(rows);
    }

    private static ModelTable sorted(final List<Row> rows)
    {
        rows.sort((a, b) -> a.model().equals(b.model()) ? a.version().compareTo(b.version())
            : a.model().compareTo(b.model()));
        return new ModelTable(rows);
    }

    /** @return the rows. */
    List<Row> rows()
    {
        return rows;
    }

    /** @return the rows that are not ready. */
    List<Row> failures()
    {
        return rows.stream().filter(row -> !row.ok()).toList();
    }

    /**
     * Prints the table, then one line per model that is not ready with its reason.
     *
     * @param out where to print
     */
    void print(final PrintStream out)
    {
        final int[] widths = new int[HEADER.length];
        for (int i = 0; i < HEADER.length; i++)
        {
            widths[i] = HEADER[i].length();
        }
        for (final Row row : rows)
        {
            final String[] cells = cells(row);
            for (int i = 0; i < cells.length; i++)
            {
                widths[i] = Math.max(widths[i], cells[i].length());
            }
        }
        printLine(out, HEADER, widths);
        for (final Row row : rows)
        {
            printLine(out, cells(row), widths);
        }
        for (final Row row : failures())
        {
            out.println();
            out.println("  " + row.model() + ": " + (row.reason().isEmpty() ? row.state() : row.reason()));
        }
    }

    private static String[] cells(final Row row)
    {
        return new String[] {row.model(), row.version(), row.engine(), row.batching(), row.instances(), row.state()};
    }

    private static void printLine(final PrintStream out, final String[] cells, final int[] widths)
    {
        final StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++)
        {
            line.append(cells[i]);
            if (i < cells.length - 1)
            {
                line.append(" ".repeat(widths[i] - cells[i].length() + 2));
            }
        }
        out.println(line);
    }

    /**
     * @param config a model configuration
     * @return its platform, or its backend when no platform is set
     */
    static String engine(final ModelConfig config)
    {
        if (!config.getPlatform().isEmpty())
        {
            return config.getPlatform();
        }
        return config.getBackend().isEmpty() ? "-" : config.getBackend();
    }

    /**
     * @param config a model configuration
     * @return how it batches, e.g. {@code dynamic (max 8, preferred [4,8], delay 2000us)} or
     *         {@code adaptive (max 16, SLO 10000us at p99)}
     */
    static String batching(final ModelConfig config)
    {
        final int max = config.getMaxBatchSize();
        if (config.hasSequenceBatching())
        {
            return "sequence (max " + max + ")";
        }
        if (config.hasEnsembleScheduling())
        {
            return "ensemble";
        }
        if (max == 0)
        {
            return "none";
        }
        if (!config.hasDynamicBatching())
        {
            return "max " + max + ", no dynamic batcher";
        }
        final ModelDynamicBatching dynamic = config.getDynamicBatching();
        final BatchingParameters policy = policyOf(config);
        if (policy == null)
        {
            // A scanned model with bad parameters is INVALID with the full reason below the table.
            return "dynamic (max " + max + ", invalid " + BatchingParameters.BATCHING + ")";
        }
        final boolean adaptive = policy.kind() != BatchingParameters.Kind.STATIC;
        final StringBuilder text = new StringBuilder(adaptive ? policy.kind().value() : "dynamic").append(" (max ")
            .append(max);
        if (adaptive)
        {
            // The policy decides when to dispatch: the configured delay and preferred sizes do not apply.
            text.append(", ").append(policy.settingsText());
        }
        else
        {
            if (dynamic.getPreferredBatchSizeCount() > 0)
            {
                text.append(", preferred ").append(dynamic.getPreferredBatchSizeList().toString().replace(" ", ""));
            }
            if (dynamic.getMaxQueueDelayMicroseconds() > 0)
            {
                text.append(", delay ").append(dynamic.getMaxQueueDelayMicroseconds()).append("us");
            }
        }
        if (dynamic.getPriorityLevels() > 0)
        {
            text.append(", ").append(dynamic.getPriorityLevels()).append(" priority levels");
        }
        return text.append(')').toString();
    }

    /** @return the batch-formation policy the model's {@code ingot.batching} parameters choose, null when invalid */
    private static BatchingParameters policyOf(final ModelConfig config)
    {
        try
        {
            return BatchingParameters.of(config);
        }
        catch (final ConfigException ex)
        {
            return null;
        }
    }

    /**
     * @param config a model configuration
     * @return its instances, e.g. {@code 2 x CPU}
     */
    static String instances(final ModelConfig config)
    {
        if (config.getInstanceGroupCount() == 0)
        {
            return "default";
        }
        final List<String> groups = new ArrayList<>();
        for (final ModelInstanceGroup group : config.getInstanceGroupList())
        {
            final String kind = group.getKind().name().replace("KIND_", "");
            final String devices = group.getGpusCount() == 0 ? "" : group.getGpusList().toString().replace(" ", "");
            groups.add(group.getCount() + " x " + kind + devices);
        }
        return String.join(", ", groups);
    }
}
