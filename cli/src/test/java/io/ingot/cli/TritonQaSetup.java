package io.ingot.cli;

import io.ingot.testing.TestFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Replays the set-up part of one of Triton's QA scripts (its {@code test.sh} up to the first server run) on a copy of
 * its folder, so that the cases are laid out as Triton lays them out: the version directories it makes, the model
 * files it copies in, the configurations it assembles. It understands the few shell forms those scripts use
 * ({@code for modelpath in ...; do ...; done} over words or {@code `ls -d GLOB`}, {@code mkdir -p}, {@code cp [-r]},
 * {@code touch}, {@code echo ... >>}, {@code cat A B > C}, variable assignments) and fails on anything else, so that a
 * changed script is noticed rather than half-played.
 *
 * <p>Files Triton takes from outside its repository (its QA model store under {@code /data/inferenceserver}, its
 * installed backends and models under {@code /opt/tritonserver}, backend libraries it builds) are not here; each
 * copy of one is recorded in {@link Result#missing()} instead, keyed by where it would have gone, so the caller can
 * tell which cases cannot be played. {@code /opt/tritonserver/qa/...} is taken from the server repository's
 * {@code qa/} folder where it is there. Not thread-safe; one use.
 */
final class TritonQaSetup
{
    /** The line where the set-up ends and the runs begin. */
    private static final String END = "rm -f $SERVER_LOG_BASE*";

    private static final Pattern ASSIGNMENT = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)=(.*)$");

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)}?");

    private final Path work;
    private final Path qa;
    private final Map<String, String> variables = new HashMap<>();
    private final Map<Path, String> missing = new LinkedHashMap<>();

    /**
     * What the set-up left.
     *
     * @param work    the prepared copy of the script's folder
     * @param missing every path (relative to {@code work}) a file from outside the repositories would have been
     *                copied to, with that file
     * @param trials  the script's {@code TRIALS} (the platforms it tries), empty when it has none
     */
    record Result(Path work, Map<Path, String> missing, List<String> trials)
    {
        /**
         * @param relative a case's folder, relative to {@link #work}
         * @return the files from outside the repositories that case needs
         */
        List<String> missingUnder(final Path relative)
        {
            return missing.entrySet().stream().filter(entry -> entry.getKey().startsWith(relative))
                .map(Map.Entry::getValue).distinct().toList();
        }
    }

    private TritonQaSetup(final Path work, final Path qa)
    {
        this.work = work;
        this.qa = qa;
    }

    /**
     * @param folder a QA folder of Triton's server repository, e.g. {@code server/qa/L0_model_config}
     * @param work   an empty folder to prepare the copy in
     * @return what the set-up left
     * @throws IOException when the folder cannot be copied
     */
    static Result prepare(final Path folder, final Path work) throws IOException
    {
        TestFiles.copyTree(folder, work);
        final TritonQaSetup setup = new TritonQaSetup(work, folder.getParent());
        final List<String> statements = setup.statements(Files.readString(folder.resolve("test.sh"),
            StandardCharsets.UTF_8));
        setup.run(statements);
        final String trials = setup.variables.getOrDefault("TRIALS", "").trim();
        return new Result(work, setup.missing, trials.isEmpty() ? List.of() : List.of(trials.split("\\s+")));
    }

    /** @return the set-up's statements: comments dropped, continuation lines joined, from TRIALS to the first run */
    private List<String> statements(final String script)
    {
        final String joined = script.replace("\\\n", " ");
        final List<String> result = new ArrayList<>();
        boolean started = false;
        for (final String raw : joined.split("\n"))
        {
            final String line = raw.strip();
            if (line.startsWith(END))
            {
                break;
            }
            if (line.startsWith("TRIALS="))
            {
                started = true;
            }
            if (started && !line.isEmpty() && !line.startsWith("#"))
            {
                result.add(line);
            }
        }
        return result;
    }

    private void run(final List<String> statements) throws IOException
    {
        for (int i = 0; i < statements.size(); i++)
        {
            final String statement = statements.get(i);
            if (statement.startsWith("for "))
            {
                final Matcher loop = Pattern.compile("^for (\\w+) in (.*?)\\s*;\\s*do\\s*(.*)$").matcher(statement);
                if (!loop.matches())
                {
                    throw new IllegalStateException("a for loop this replay does not know: " + statement);
                }
                final List<String> body = new ArrayList<>();
                if (!loop.group(3).isEmpty())
                {
                    body.add(loop.group(3));
                }
                while (!statements.get(++i).equals("done"))
                {
                    body.add(statements.get(i));
                }
                for (final String item : items(loop.group(2)))
                {
                    variables.put(loop.group(1), item);
                    for (final String line : body)
                    {
                        execute(line);
                    }
                }
            }
            else
            {
                execute(statement);
            }
        }
    }

    private List<String> items(final String list) throws IOException
    {
        final String expanded = expand(list).strip();
        if (expanded.startsWith("`ls -d ") && expanded.endsWith("`"))
        {
            return glob(expanded.substring("`ls -d ".length(), expanded.length() - 1).strip());
        }
        return List.of(expanded.split("\\s+"));
    }

    private List<String> glob(final String pattern) throws IOException
    {
        final PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        try (Stream<Path> paths = Files.walk(work))
        {
            return paths.filter(Files::isDirectory).map(work::relativize).filter(matcher::matches)
                .map(Path::toString).sorted().toList();
        }
    }

    private void execute(final String line) throws IOException
    {
        final Matcher assignment = ASSIGNMENT.matcher(line);
        if (assignment.matches())
        {
            String value = unquote(expand(assignment.group(2)));
            if (value.startsWith("`basename ") && value.endsWith("`"))
            {
                value = Path.of(value.substring("`basename ".length(), value.length() - 1).strip()).getFileName()
                    .toString();
            }
            variables.put(assignment.group(1), value);
            return;
        }
        final String expanded = expand(line);
        final List<String> words = words(expanded);
        switch (words.getFirst())
        {
            case "mkdir" -> words.stream().skip(1).filter(word -> !word.startsWith("-"))
                .forEach(path -> createDirectories(local(path)));
            case "touch" -> words.stream().skip(1).forEach(path -> touch(local(path)));
            case "cp" -> copy(words);
            case "echo" -> append(words);
            case "cat" -> concatenate(words);
            case "sed" -> edit(words);
            default -> throw new IllegalStateException("a command this replay does not know: " + line);
        }
    }

    private void copy(final List<String> words) throws IOException
    {
        final List<String> operands = words.stream().skip(1).filter(word -> !word.startsWith("-")).toList();
        final String source = operands.getFirst();
        final Path target = local(operands.getLast());
        final Path from = source(source);
        final Path into = target.toString().endsWith("/.") || Files.isDirectory(target)
            ? target.resolve(Path.of(source).getFileName().toString()) : target;
        if (from == null || !Files.exists(from))
        {
            missing.put(work.relativize(into.normalize()), source);
            return;
        }
        if (Files.isDirectory(from))
        {
            TestFiles.copyTree(from, into);
        }
        else
        {
            Files.createDirectories(into.normalize().getParent());
            Files.copy(from, into.normalize());
        }
    }

    /** @return where a copied file comes from here, or {@code null} when it is outside the repositories */
    private Path source(final String source)
    {
        if (source.startsWith("/opt/tritonserver/qa/"))
        {
            return qa.resolve(source.substring("/opt/tritonserver/qa/".length()));
        }
        if (source.startsWith("/"))
        {
            return null;
        }
        return source.startsWith("./libtriton_") ? null : local(source);
    }

    private void append(final List<String> words) throws IOException
    {
        final int redirect = words.indexOf(">>");
        final Path file = local(words.get(redirect + 1));
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join(" ", words.subList(1, redirect)) + "\n", StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    private void concatenate(final List<String> words) throws IOException
    {
        final int redirect = words.indexOf(">");
        final Path target = local(words.get(redirect + 1));
        final StringBuilder text = new StringBuilder();
        for (final String part : words.subList(1, redirect))
        {
            final Path from = source(part);
            if (from == null || !Files.exists(from))
            {
                missing.put(work.relativize(target), part);
                return;
            }
            text.append(Files.readString(from, StandardCharsets.UTF_8));
        }
        Files.writeString(target, text.toString(), StandardCharsets.UTF_8);
    }

    /** {@code sed -i} on a file that exists is not replayed: its case is marked as not played as Triton plays it. */
    private void edit(final List<String> words)
    {
        final Path file = local(words.getLast());
        missing.put(work.relativize(file), "an edit this replay does not make: " + String.join(" ", words));
    }

    private Path local(final String path)
    {
        return work.resolve(path.startsWith("`pwd`/") ? path.substring("`pwd`/".length()) : path);
    }

    private String expand(final String text)
    {
        final Matcher matcher = VARIABLE.matcher(text);
        final StringBuilder result = new StringBuilder();
        while (matcher.find())
        {
            matcher.appendReplacement(result, Matcher.quoteReplacement(variables.getOrDefault(matcher.group(1),
                matcher.group())));
        }
        matcher.appendTail(result);
        return result.toString();
    }

    /** Splits on blanks outside double quotes, dropping the quotes. */
    private static List<String> words(final String line)
    {
        final List<String> words = new ArrayList<>();
        final StringBuilder word = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++)
        {
            final char c = line.charAt(i);
            if (c == '"')
            {
                quoted = !quoted;
            }
            else if (Character.isWhitespace(c) && !quoted)
            {
                if (!word.isEmpty())
                {
                    words.add(word.toString());
                    word.setLength(0);
                }
            }
            else
            {
                word.append(c);
            }
        }
        if (!word.isEmpty())
        {
            words.add(word.toString());
        }
        return words;
    }

    private static String unquote(final String value)
    {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
            ? value.substring(1, value.length() - 1) : value;
    }

    private static void createDirectories(final Path directory)
    {
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    private static void touch(final Path file)
    {
        try
        {
            Files.createDirectories(file.getParent());
            if (!Files.exists(file))
            {
                Files.createFile(file);
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
