package io.ingot.cli;

import picocli.CommandLine.Command;

/** A contributed subcommand whose name is taken: it must be skipped with a warning. */
@Command(name = "serve")
public final class ClashingSubcommand implements IngotSubcommand
{
    /** Created by {@link java.util.ServiceLoader}. */
    public ClashingSubcommand()
    {
    }

    @Override
    public Integer call()
    {
        throw new AssertionError("a clashing subcommand must never run");
    }
}
