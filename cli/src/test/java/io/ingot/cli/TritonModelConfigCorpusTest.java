package io.ingot.cli;

import io.ingot.backend.BackendFactory;
import io.ingot.device.PinnedAllocators;
import io.ingot.testing.TestFiles;
import io.ingot.testing.TritonSources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's own model-configuration corpus, {@code server/qa/L0_model_config} (its configurations and expected
 * messages, unchanged), played through {@code ingot models validate --load} as Triton's {@code test.sh} plays it
 * through {@code tritonserver}: the same set-up ({@link TritonQaSetup}), the same flags per group, the same platform
 * rewriting for the {@code noautofill_platform} trials, and Triton's match rule (an {@code expected*} file's text, a
 * grep basic regular expression, found in an error line; any line for {@code cli_messages}).
 *
 * <p>A case is <em>played</em> when everything it needs is here: no file from Triton's QA model store or its build
 * ({@link TritonQaSetup.Result#missing()}), a backend of Ingot for its platform, a GPU where its configuration names
 * GPUs (Triton's test runs with one), and nothing Ingot reports as not supported yet. Every played case that Triton
 * expects to fail must fail with Triton's message, and every played case Triton expects to load must load (Triton
 * also compares the completed configuration with its expected one; that is not compared here); the others are run
 * too and counted, and the report
 * ({@code target/triton-model-config-corpus.txt}) lists every case with its outcome. The corpus comes unchanged
 * from the project's {@code third_party/triton} (or {@code INGOT_TRITON_SOURCES}); {@code LoadOrderTest} and
 * {@code ValidateOrderTest} assert the order and the messages with configurations of the project's own.
 */
class TritonModelConfigCorpusTest
{
    /** Platforms (and the backends they name) whose Triton files never play here: no Ingot backend runs them. */
    private static final Set<String> UNPLAYABLE_GROUPS = Set.of("openvino", "tensorrt");

    /** Ingot's own words for a feature it does not have yet: a case that needs one is not played. */
    private static final Pattern NOT_YET = Pattern.compile("not supported yet|do not run .* yet");

    /** Triton's test runs with one GPU ({@code CUDA_VISIBLE_DEVICES=0}); a case naming GPUs plays only with one. */
    private static final Pattern NAMES_GPUS = Pattern.compile("\\bgpus\\s*:");

    private enum Expectation
    {
        /** Fails; an expected message is in an error line. */
        ERROR,
        /** Fails; an expected message is in any line (warnings about flags). */
        MESSAGE,
        /** Loads. */
        LOAD,
        /** Loads; an expected message is in a warning line. */
        WARNING
    }

    /** One run of the corpus. */
    private record Case(String label, Path source, boolean wholeRepository, List<String> flags, String trial,
        Expectation expectation, Path expectedFolder)
    {
    }

    /** A case's result. */
    private record Outcome(Case of, boolean played, boolean matched, String detail)
    {
    }

    @Test
    void everyPlayedCaseAnswersAsTriton(@TempDir final Path work) throws IOException
    {
        final Path corpus = TritonSources.require("server/qa/L0_model_config",
            "Triton's qa/L0_model_config corpus");
        final TritonQaSetup.Result setup = TritonQaSetup.prepare(corpus, work.resolve("corpus"));
        final Set<String> backends = new TreeSet<>();
        ServiceLoader.load(BackendFactory.class).forEach(factory -> backends.add(factory.name()));

        final List<Outcome> outcomes = new ArrayList<>();
        int run = 0;
        for (final Case c : cases(setup))
        {
            outcomes.add(play(c, setup, backends, work.resolve("run-" + run++)));
        }
        final String report = report(outcomes);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "triton-model-config-corpus.txt"), report, StandardCharsets.UTF_8);
        System.out.println(report.lines().filter(line -> line.startsWith("TOTAL") || line.startsWith("  "))
            .collect(Collectors.joining("\n")));
        final List<Outcome> wrong = outcomes.stream().filter(o -> o.played() && !o.matched()).toList();
        assertTrue(wrong.isEmpty(), () -> wrong.size() + " played case(s) do not answer as Triton:\n"
            + wrong.stream().map(o -> o.of().label() + ": " + o.detail()).collect(Collectors.joining("\n")));
    }

    /** The runs of test.sh, group by group, with its flags. */
    private static List<Case> cases(final TritonQaSetup.Result setup) throws IOException
    {
        final Path root = setup.work();
        final List<Case> cases = new ArrayList<>();
        for (final Path target : children(root.resolve("cli_messages")))
        {
            final String name = target.getFileName().toString();
            final List<String> flags = switch (name)
            {
                case "cli_override" -> List.of("--disable-auto-complete-config", "--strict-model-config=false");
                case "cli_deprecation" -> List.of("--strict-model-config=true");
                default -> List.of();
            };
            cases.add(new Case("cli_messages/" + name, target, false, flags, null, Expectation.MESSAGE, target));
        }
        for (final Path target : children(root.resolve("special_cases")))
        {
            final String name = target.getFileName().toString();
            cases.add(new Case("special_cases/" + name, target, false, name.equals("invalid_platform")
                ? List.of("--disable-auto-complete-config") : List.of(), null, Expectation.ERROR, target));
        }
        for (final List<String> flags : List.of(List.of("--strict-model-config=true"),
            List.of("--disable-auto-complete-config")))
        {
            for (final String trial : setup.trials())
            {
                for (final Path target : children(root.resolve("noautofill_platform")))
                {
                    cases.add(new Case("noautofill_platform/" + target.getFileName() + " [" + trial + ", "
                        + flags.getFirst() + "]", target, false, flags, trial, Expectation.ERROR, target));
                }
            }
        }
        for (final String group : List.of("autofill_noplatform", "autofill_noplatform_success"))
        {
            final boolean success = group.endsWith("_success");
            for (final Path kind : children(root.resolve(group)))
            {
                for (final Path target : children(kind))
                {
                    final String name = target.getFileName().toString();
                    final boolean single = Files.exists(target.resolve("config.pbtxt"))
                        || success && name.startsWith("no_config");
                    cases.add(new Case(group + "/" + kind.getFileName() + "/" + name, target, !single,
                        List.of("--strict-model-config=false"), null, success ? Expectation.LOAD : Expectation.ERROR,
                        target));
                }
            }
        }
        for (final Path target : children(root.resolve("model_metrics").resolve("valid_config")))
        {
            cases.add(new Case("model_metrics/valid_config/" + target.getFileName(), target, false, List.of(), null,
                Expectation.LOAD, target));
        }
        for (final Path target : children(root.resolve("model_metrics").resolve("valid_config_with_warn")))
        {
            cases.add(new Case("model_metrics/valid_config_with_warn/" + target.getFileName(), target, false,
                List.of(), null, Expectation.WARNING, target));
        }
        for (final Path target : children(root.resolve("model_metrics").resolve("invalid_config")))
        {
            cases.add(new Case("model_metrics/invalid_config/" + target.getFileName(), target, false, List.of(),
                null, Expectation.ERROR, target));
        }
        try (Stream<Path> parameters = Files.list(root.resolve("custom_parameters")))
        {
            for (final Path kind : parameters.filter(Files::isDirectory).sorted().toList())
            {
                for (final String validity : List.of("valid", "invalid"))
                {
                    for (final Path target : children(kind.resolve(validity)))
                    {
                        cases.add(new Case("custom_parameters/" + kind.getFileName() + "/" + validity + "/"
                            + target.getFileName(), target, false, List.of(), null, validity.equals("valid")
                            ? Expectation.LOAD : Expectation.ERROR, target));
                    }
                }
            }
        }
        return cases;
    }

    private static Outcome play(final Case c, final TritonQaSetup.Result setup, final Set<String> backends,
        final Path run) throws IOException
    {
        final Path models = run.resolve("models");
        if (c.wholeRepository())
        {
            TestFiles.copyTree(c.source(), models);
        }
        else
        {
            TestFiles.copyTree(c.source(), models.resolve(c.source().getFileName().toString()));
        }
        final Path config = models.resolve(c.source().getFileName().toString()).resolve("config.pbtxt");
        if (c.trial() != null && Files.exists(config))
        {
            final String rewritten = Files.readAllLines(config, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.contains("platform:")).collect(Collectors.joining("\n", "", "\n"))
                + "platform: \"" + c.trial() + "\"\n";
            Files.writeString(config, rewritten, StandardCharsets.UTF_8);
        }
        final List<String> needs = new ArrayList<>(setup.missingUnder(setup.work().relativize(c.source())));
        needs.removeIf(file -> file.startsWith("./libtriton_") && backends.contains(file.substring(
            "./libtriton_".length(), file.length() - ".so".length())));
        final String group = c.label().split("/")[1].split(" ")[0];
        if (UNPLAYABLE_GROUPS.contains(group) || "tensorrt_plan".equals(c.trial()))
        {
            needs.add("a " + (c.trial() == null ? group : c.trial()) + " backend (Ingot has none here)");
        }
        if (Files.exists(config) && NAMES_GPUS.matcher(Files.readString(config)).find() && !hasGpu())
        {
            needs.add("a GPU, as Triton's test has");
        }

        final List<String> arguments = new ArrayList<>(List.of("models", "validate", "--load"));
        arguments.addAll(c.flags());
        arguments.add(models.toString());
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code;
        try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8))
        {
            code = IngotCli.run(arguments.toArray(String[]::new), CoreOpener.DEFAULT, outStream, errStream);
        }
        final List<String> lines = Stream.concat(err.toString(StandardCharsets.UTF_8).lines(),
            out.toString(StandardCharsets.UTF_8).lines()).toList();
        lines.stream().filter(line -> line.startsWith("error:") && NOT_YET.matcher(line).find()).findFirst()
            .ifPresent(line -> needs.add("what Ingot does not have yet: " + line));
        final boolean played = needs.isEmpty();
        final List<String> expected = expected(c);
        final boolean matched = switch (c.expectation())
        {
            case LOAD -> code == 0;
            case WARNING -> code == 0 && found(expected, lines, "warning:");
            case ERROR -> code != 0 && found(expected, lines, "error:");
            case MESSAGE -> code != 0 && found(expected, lines, "");
        };
        final String detail = (played ? "" : "not played (needs " + String.join("; ", needs) + "); ") + "exit "
            + code + "; expected " + expected + "; got "
            + lines.stream().filter(line -> line.startsWith("error:") || line.startsWith("warning:")
                || line.startsWith("Warning:")).toList();
        return new Outcome(c, played, matched, detail);
    }

    private static boolean hasGpu()
    {
        return !PinnedAllocators.discovery().devices().isEmpty();
    }

    private static List<String> expected(final Case c) throws IOException
    {
        final List<String> texts = new ArrayList<>();
        try (Stream<Path> files = Files.list(c.expectedFolder()))
        {
            for (final Path file : files.filter(f -> f.getFileName().toString().startsWith("expected")).sorted()
                .toList())
            {
                texts.add(Files.readString(file, StandardCharsets.UTF_8).strip());
            }
        }
        return texts;
    }

    /** Triton's test: {@code grep "$EX"} (a basic regular expression) over the lines of the log. */
    private static boolean found(final List<String> expected, final List<String> lines, final String prefix)
    {
        for (final String text : expected)
        {
            final Pattern pattern = Pattern.compile(BasicRegex.toJava(text));
            if (lines.stream().filter(line -> line.startsWith(prefix)).anyMatch(line -> pattern.matcher(line).find()))
            {
                return true;
            }
        }
        return false;
    }

    private static List<Path> children(final Path folder) throws IOException
    {
        if (!Files.isDirectory(folder))
        {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(folder))
        {
            return entries.filter(Files::isDirectory).sorted().toList();
        }
    }

    private static String report(final List<Outcome> outcomes)
    {
        final StringBuilder text = new StringBuilder();
        final long failures = outcomes.stream().filter(o -> o.of().expectation() != Expectation.LOAD).count();
        final long playedFailures = outcomes.stream().filter(o -> o.played()
            && o.of().expectation() != Expectation.LOAD).count();
        final long matchedPlayed = outcomes.stream().filter(o -> o.played() && o.matched()
            && o.of().expectation() != Expectation.LOAD).count();
        final long matchedAll = outcomes.stream().filter(o -> o.matched()
            && o.of().expectation() != Expectation.LOAD).count();
        final long loads = outcomes.stream().filter(o -> o.of().expectation() == Expectation.LOAD).count();
        final long playedLoads = outcomes.stream().filter(o -> o.played()
            && o.of().expectation() == Expectation.LOAD).count();
        final long loaded = outcomes.stream().filter(o -> o.played() && o.matched()
            && o.of().expectation() == Expectation.LOAD).count();
        text.append("TOTAL ").append(outcomes.size()).append(" runs of Triton's qa/L0_model_config\n")
            .append("  with an expected message: ").append(failures).append(" runs, ").append(matchedAll)
            .append(" answer Triton's message; played here: ").append(playedFailures).append(", of which ")
            .append(matchedPlayed).append(" answer Triton's message\n")
            .append("  expected to load: ").append(loads).append(" runs; played here: ").append(playedLoads)
            .append(", of which ").append(loaded).append(" load\n");
        for (final Outcome outcome : outcomes)
        {
            text.append(outcome.matched() ? "MATCH  " : outcome.played() ? "DIFFER " : "UNPLAYED ")
                .append(outcome.of().label()).append(": ").append(outcome.detail()).append('\n');
        }
        return text.toString();
    }
}
