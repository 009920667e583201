package io.ingot.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.ValidationMessage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every manifest under {@code deploy/kserve} and {@code deploy/k8s} satisfies the published schema of its
 * {@code apiVersion} and {@code kind} (deploy/schemas, see its README for where each came from); a manifest whose
 * kind has no schema there fails too, so that nothing ships unvalidated. Also: the schemas refuse the mistakes a
 * manifest is likely to have (a misspelt field, a wrong type), and the drain fits the pod's grace period.
 */
class ManifestSchemaTest
{
    private static final Path SCHEMAS = Path.of("schemas");
    private static final List<Path> MANIFEST_FOLDERS = List.of(Path.of("kserve"), Path.of("k8s"));

    private static SchemaCatalogue catalogue;

    @BeforeAll
    static void loadSchemas()
    {
        catalogue = SchemaCatalogue.load(SCHEMAS);
    }

    /** One YAML document of a manifest file. */
    record Manifest(Path file, int index, JsonNode document)
    {
        @Override
        public String toString()
        {
            return file + " #" + index + " (" + document.path("kind").asText() + " "
                + document.path("metadata").path("name").asText() + ")";
        }
    }

    static Stream<Manifest> manifests() throws IOException
    {
        final List<Manifest> all = new ArrayList<>();
        for (final Path folder : MANIFEST_FOLDERS)
        {
            try (Stream<Path> files = Files.list(folder))
            {
                for (final Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList())
                {
                    try (MappingIterator<JsonNode> documents = SchemaCatalogue.YAML.readerFor(JsonNode.class)
                        .readValues(file.toFile()))
                    {
                        int index = 0;
                        while (documents.hasNext())
                        {
                            final JsonNode document = documents.next();
                            if (document != null && !document.isNull() && !document.isEmpty())
                            {
                                all.add(new Manifest(file, index, document));
                            }
                            index++;
                        }
                    }
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("manifests")
    void everyManifestSatisfiesItsPublishedSchema(final Manifest manifest)
    {
        final Set<ValidationMessage> errors = validate(manifest.document());
        assertTrue(errors.isEmpty(), () -> manifest + " does not satisfy its schema:\n  "
            + errors.stream().map(ValidationMessage::getMessage).sorted().collect(Collectors.joining("\n  ")));
    }

    @Test
    void theManifestsCoverWhatAnOrchestratorNeeds() throws IOException
    {
        final Set<String> kinds = manifests().map(m -> m.document().path("kind").asText())
            .collect(Collectors.toSet());
        assertEquals(Set.of("ClusterServingRuntime", "InferenceService", "Deployment", "Service",
            "HorizontalPodAutoscaler", "ConfigMap"), kinds);
    }

    @Test
    void aMisspeltFieldIsRefused() throws IOException
    {
        final ObjectNode deployment = (ObjectNode) only("Deployment").deepCopy();
        final ObjectNode container = (ObjectNode) deployment.at("/spec/template/spec/containers/0");
        container.set("readinesProbe", container.remove("readinessProbe"));
        assertRefused(deployment, "readinesProbe");

        final ObjectNode runtime = (ObjectNode) only("ClusterServingRuntime").deepCopy();
        ((ObjectNode) runtime.path("spec")).set("supportedModelFormat",
            ((ObjectNode) runtime.path("spec")).remove("supportedModelFormats"));
        assertRefused(runtime, "supportedModelFormat");
    }

    @Test
    void aWrongTypeIsRefused() throws IOException
    {
        final ObjectNode deployment = (ObjectNode) only("Deployment").deepCopy();
        ((ObjectNode) deployment.path("spec")).put("replicas", "three");
        assertRefused(deployment, "replicas");

        final ObjectNode service = (ObjectNode) only("InferenceService").deepCopy();
        ((ObjectNode) service.at("/spec/predictor")).put("minReplicas", "one");
        assertRefused(service, "minReplicas");
    }

    @Test
    void theDrainFitsTheGracePeriod() throws IOException
    {
        final JsonNode pod = only("Deployment").at("/spec/template/spec");
        final JsonNode container = pod.at("/containers/0");
        final int grace = pod.path("terminationGracePeriodSeconds").asInt(30);
        int preStopSleep = 0;
        final JsonNode command = container.at("/lifecycle/preStop/exec/command");
        if (command.isArray() && command.path(0).asText().endsWith("sleep"))
        {
            preStopSleep = command.path(1).asInt();
        }
        final int exitTimeout = exitTimeout(container.path("args"));
        assertTrue(preStopSleep + exitTimeout < grace, "preStop sleep " + preStopSleep + " s + --exit-timeout-secs "
            + exitTimeout + " s must end before terminationGracePeriodSeconds " + grace + " s, or the kubelet's"
            + " SIGKILL cuts the drain short");

        final JsonNode runtime = only("ClusterServingRuntime").at("/spec/containers/0");
        final int inferenceGrace = only("InferenceService").at("/spec/predictor/terminationGracePeriodSeconds")
            .asInt(30);
        assertTrue(exitTimeout(runtime.path("args")) < inferenceGrace, "the runtime's --exit-timeout-secs must end"
            + " before the InferenceService's terminationGracePeriodSeconds " + inferenceGrace);
    }

    @Test
    void theProbesAreTritonsHealthEndpoints() throws IOException
    {
        for (final JsonNode container : List.of(only("Deployment").at("/spec/template/spec/containers/0"),
            only("ClusterServingRuntime").at("/spec/containers/0")))
        {
            assertEquals("/v2/health/live", container.at("/livenessProbe/httpGet/path").asText());
            assertEquals("/v2/health/ready", container.at("/readinessProbe/httpGet/path").asText());
        }
    }

    private static int exitTimeout(final JsonNode args)
    {
        for (final JsonNode arg : args)
        {
            if (arg.asText().startsWith("--exit-timeout-secs="))
            {
                return Integer.parseInt(arg.asText().substring("--exit-timeout-secs=".length()));
            }
        }
        return 30; // Ingot's default, Triton's
    }

    private static JsonNode only(final String kind) throws IOException
    {
        final List<JsonNode> found = manifests().map(Manifest::document)
            .filter(d -> kind.equals(d.path("kind").asText())).toList();
        assertEquals(1, found.size(), "manifests of kind " + kind);
        return found.getFirst();
    }

    private static void assertRefused(final JsonNode document, final String field)
    {
        final Set<ValidationMessage> errors = validate(document);
        assertFalse(errors.isEmpty(), "a manifest with a broken " + field + " passed its schema");
        assertTrue(errors.stream().anyMatch(e -> e.getMessage().contains(field)),
            () -> "the errors do not name " + field + ": " + errors);
    }

    private static Set<ValidationMessage> validate(final JsonNode document)
    {
        final String apiVersion = document.path("apiVersion").asText();
        final String kind = document.path("kind").asText();
        final JsonSchema schema = catalogue.schemaFor(apiVersion, kind).orElse(null);
        if (schema == null)
        {
            fail("no schema for apiVersion " + apiVersion + " kind " + kind + " under " + SCHEMAS
                + " (known: " + catalogue.known().keySet() + "): add the published one, with its origin");
        }
        return schema.validate(document);
    }
}
