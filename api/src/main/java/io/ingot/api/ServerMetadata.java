package io.ingot.api;

import java.util.List;

/**
 * The server's name, version and protocol extensions. Immutable (the list is unmodifiable when the core builds it).
 *
 * @param name       server name
 * @param version    server version
 * @param extensions protocol extensions supported
 */
public record ServerMetadata(String name, String version, List<String> extensions)
{
}
