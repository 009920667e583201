package io.ingot.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The published schemas kept under {@code deploy/schemas}, by {@code apiVersion} and {@code kind}:
 * <ul>
 *   <li>{@code kubernetes-*}: the "standalone-strict" JSON schemas generated from Kubernetes' OpenAPI (every object
 *       with properties refuses unknown ones, as {@code kubectl apply --validate=strict} does); each names its
 *       {@code apiVersion} and {@code kind} in enums, which is how it is filed here;</li>
 *   <li>{@code kserve}: KServe's CustomResourceDefinitions, one {@code openAPIV3Schema} per served version. A CRD's
 *       structural schema makes the API server drop unknown fields silently; here they are refused instead
 *       ({@code additionalProperties: false} on every object that lists properties and does not say
 *       {@code x-kubernetes-preserve-unknown-fields}), so that a misspelt field fails the test rather than vanish.</li>
 * </ul>
 * Not thread-safe while loading; immutable after.
 */
final class SchemaCatalogue
{
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, JsonSchema> schemas = new TreeMap<>();
    private final Map<String, String> origins = new TreeMap<>();

    /**
     * @param folder the schemas folder
     * @return every schema of its sub-folders
     */
    static SchemaCatalogue load(final Path folder)
    {
        final SchemaCatalogue catalogue = new SchemaCatalogue();
        final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);
        try (Stream<Path> files = Files.walk(folder))
        {
            for (final Path file : files.filter(Files::isRegularFile).sorted().toList())
            {
                final String name = file.getFileName().toString();
                if (name.endsWith(".json"))
                {
                    catalogue.addKubernetes(factory, file);
                }
                else if (name.endsWith(".yaml"))
                {
                    catalogue.addCustomResourceDefinition(factory, file);
                }
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return catalogue;
    }

    /**
     * @param apiVersion the manifest's apiVersion
     * @param kind       its kind
     * @return the schema it must satisfy, if the catalogue has one
     */
    Optional<JsonSchema> schemaFor(final String apiVersion, final String kind)
    {
        return Optional.ofNullable(schemas.get(key(apiVersion, kind)));
    }

    /**
     * @return every {@code apiVersion kind} the catalogue knows, with the file it came from
     */
    Map<String, String> known()
    {
        return origins;
    }

    private void addKubernetes(final JsonSchemaFactory factory, final Path file) throws IOException
    {
        final JsonNode schema = JSON.readTree(file.toFile());
        final JsonNode properties = schema.path("properties");
        final JsonNode apiVersions = properties.path("apiVersion").path("enum");
        final JsonNode kinds = properties.path("kind").path("enum");
        if (apiVersions.size() != 1 || kinds.size() != 1)
        {
            throw new IllegalStateException(file + ": expected one apiVersion and one kind in its enums, found "
                + apiVersions + " and " + kinds);
        }
        // "$schema": "http://json-schema.org/schema#" names no draft: they are read as draft 4, as generated.
        ((ObjectNode) schema).remove("$schema");
        put(apiVersions.get(0).asText(), kinds.get(0).asText(), factory.getSchema(schema), file);
    }

    private void addCustomResourceDefinition(final JsonSchemaFactory factory, final Path file) throws IOException
    {
        final JsonNode crd = YAML.readTree(file.toFile());
        if (!"CustomResourceDefinition".equals(crd.path("kind").asText()))
        {
            throw new IllegalStateException(file + ": not a CustomResourceDefinition (kind "
                + crd.path("kind") + ")");
        }
        final String group = crd.path("spec").path("group").asText();
        final String kind = crd.path("spec").path("names").path("kind").asText();
        for (final JsonNode version : crd.path("spec").path("versions"))
        {
            final JsonNode schema = version.path("schema").path("openAPIV3Schema");
            if (schema.isObject())
            {
                refuseUnknownFields(schema);
                put(group + "/" + version.path("name").asText(), kind, factory.getSchema(schema), file);
            }
        }
    }

    private void put(final String apiVersion, final String kind, final JsonSchema schema, final Path file)
    {
        schemas.put(key(apiVersion, kind), schema);
        origins.put(key(apiVersion, kind), file.toString());
    }

    private static String key(final String apiVersion, final String kind)
    {
        return apiVersion + " " + kind;
    }

    /** Adds {@code additionalProperties: false} wherever the API server would prune, in place. */
    private static void refuseUnknownFields(final JsonNode node)
    {
        if (node instanceof ObjectNode object)
        {
            if (object.has("properties") && !object.has("additionalProperties")
                && !object.path("x-kubernetes-preserve-unknown-fields").asBoolean(false))
            {
                object.put("additionalProperties", false);
            }
            final Iterator<JsonNode> children = object.elements();
            while (children.hasNext())
            {
                refuseUnknownFields(children.next());
            }
        }
        else if (node.isArray())
        {
            for (final JsonNode child : node)
            {
                refuseUnknownFields(child);
            }
        }
    }
}
