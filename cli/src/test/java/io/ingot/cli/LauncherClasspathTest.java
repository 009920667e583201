package io.ingot.cli;

import io.ingot.testing.ChildProcess;
import io.ingot.testing.Ports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./ingot serve} runs on the class path Maven writes to {@code cli/target/classpath.txt}, not on the test's:
 * this starts {@code serve} on exactly that class path (plus the module's own classes, as the launcher adds its jar)
 * with HTTP and gRPC on, and asks HTTP for readiness. A dependency the server needs at run time but that a module
 * declares at test scope drops off that class path while every in-JVM test still passes (a test-scoped grpc-api in
 * this module once made {@code ./ingot serve} fail with {@code NoClassDefFoundError: io/grpc/ServerInterceptor}).
 */
class LauncherClasspathTest
{
    @Test
    void serveStartsEveryFrontendOnTheLaunchersClassPath(@TempDir final Path dir) throws Exception
    {
        final Path classpathFile = Path.of("target", "classpath.txt");
        assertTrue(Files.isRegularFile(classpathFile),
            "maven-dependency-plugin writes " + classpathFile.toAbsolutePath() + " before the tests");
        final String classpath = Path.of("target", "classes").toAbsolutePath() + File.pathSeparator
            + Files.readString(classpathFile).strip();
        final Path model = Files.createDirectories(dir.resolve("echo").resolve("1"));
        Files.writeString(model.getParent().resolve("config.pbtxt"), """
            name: "echo" backend: "identity" max_batch_size: 8
            input [{ name: "INPUT0" data_type: TYPE_INT32 dims: [1] }]
            output [{ name: "OUTPUT0" data_type: TYPE_INT32 dims: [1] }]
            """);
        final int httpPort = Ports.free();
        final int grpcPort = Ports.free();
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classpath,
            "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            IngotCli.class.getName(), "serve",
            "--model-repository", dir.toString(), "--http-port", Integer.toString(httpPort),
            "--grpc-port", Integer.toString(grpcPort), "--metrics-port", "-1"));
        try (ChildProcess child = ChildProcess.start(command))
        {
            child.awaitLine("Ingot is serving", 120);
            final HttpResponse<String> ready = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + httpPort + "/v2/models/echo/ready")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, ready.statusCode(), child.output());
            assertTrue(!child.output().contains("NoClassDefFoundError") && !child.output().contains(
                "ClassNotFoundException"), child.output());
        }
    }
}
