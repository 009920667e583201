package io.ingot.cli;

import java.util.concurrent.Callable;

/**
 * A subcommand that a module outside the command line's own adds to {@code ingot} (an embedder's tool, say). The
 * implementation is a picocli command: annotate the class with {@code @CommandLine.Command(name = "...")}, declare
 * its options with {@code @Option}/{@code @Parameters}, and return the exit code from {@link #call()}. Register it in
 * {@code META-INF/services/io.ingot.cli.IngotSubcommand}; {@link IngotCli} adds every one it finds whose name is not
 * taken.
 */
public interface IngotSubcommand extends Callable<Integer>
{
}
