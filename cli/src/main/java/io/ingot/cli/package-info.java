/**
 * The {@code ingot} command line: {@code serve}, {@code models validate}, {@code infer} and {@code perf} (from the
 * perf module), launched by the {@code ./ingot} script at the repository root. Frontends plug in as
 * {@link io.ingot.server.Frontend}s and further subcommands as {@link io.ingot.cli.IngotSubcommand}s, both found with
 * {@link java.util.ServiceLoader}.
 */
package io.ingot.cli;

