/**
 * Triton's logging extension over the JVM's logging: {@link io.ingot.server.logging.LogSettings} holds the settings
 * Triton names ({@code log_info}, {@code log_warning}, {@code log_error}, {@code log_verbose_level},
 * {@code log_format}, {@code log_file}) and applies them to {@code java.util.logging}, the backend of Ingot's
 * {@code System.Logger}s, at run time; {@code GET/POST /v2/logging}, gRPC {@code LogSettings} and the command line
 * all go through it.
 */
package io.ingot.server.logging;
