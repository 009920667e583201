package io.ingot.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** A subcommand contributed through {@link java.util.ServiceLoader}, as the benchmarks module's {@code perf} is. */
@Command(name = "hello", description = "Says hello (test extension).")
public final class HelloSubcommand implements IngotSubcommand
{
    @Parameters(index = "0", defaultValue = "world")
    String who;

    /** Created by {@link java.util.ServiceLoader}. */
    public HelloSubcommand()
    {
    }

    @Override
    public Integer call()
    {
        System.out.println("hello " + who);
        return 7;
    }
}
