package io.ingot.cli;

import picocli.CommandLine.Command;

/** {@code ingot models}: commands about model repositories. */
@Command(name = "models", mixinStandardHelpOptions = true, description = "Work with model repositories.")
final class ModelsCommand
{
}
