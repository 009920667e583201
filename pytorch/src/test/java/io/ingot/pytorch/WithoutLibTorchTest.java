package io.ingot.pytorch;

import io.ingot.testing.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Without libtorch's jar on the class path (and an empty DJL cache), a TorchScript model fails to load with a message
 * naming the model and the artifact it needs; nothing is downloaded, and the other models serve.
 */
class WithoutLibTorchTest
{
    @TempDir
    Path repository;

    @TempDir
    Path emptyCache;

    @Test
    void aMissingNativeLibraryFailsOnlyTheTorchScriptModel() throws Exception
    {
        final Path torch = repository.resolve("torch_model");
        TorchModels.write(TorchModels.affine(), torch);
        Files.writeString(torch.resolve("config.pbtxt"), """
            name: "torch_model" platform: "pytorch_libtorch" max_batch_size: 4
            input { name: "INPUT__0" data_type: TYPE_FP32 dims: [2] }
            output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [2] }
            """);
        final Path echo = repository.resolve("echo");
        Files.createDirectories(echo.resolve("1"));
        Files.writeString(echo.resolve("config.pbtxt"), """
            name: "echo" backend: "identity" max_batch_size: 4
            input { name: "INPUT0" data_type: TYPE_FP32 dims: [1] }
            output { name: "OUTPUT0" data_type: TYPE_FP32 dims: [1] }
            """);

        final List<String> command = ChildProcess.javaCommand(WithoutLibTorchMain.class, List.of(),
            repository.toString());
        final int classpath = command.indexOf("-cp") + 1;
        final String withoutNative = Arrays.stream(command.get(classpath).split(File.pathSeparator))
            .filter(entry -> !entry.contains("pytorch-native-cpu"))
            .collect(Collectors.joining(File.pathSeparator));
        assertTrue(withoutNative.length() < command.get(classpath).length(), "libtorch's jar was on the class path");
        final List<String> cached = new ArrayList<>(command);
        cached.set(classpath, withoutNative);
        cached.add(classpath + 1, "-DDJL_CACHE_DIR=" + emptyCache);
        cached.add(classpath + 1, "-DENGINE_CACHE_DIR=" + emptyCache);
        try (ChildProcess child = ChildProcess.start(cached))
        {
            assertEquals("echo answered 42.0", child.awaitLine("echo answered", 60));
            assertEquals(0, child.awaitExit(30), child.output());
            final List<String> lines = child.output().lines().toList();
            assertTrue(lines.stream().anyMatch(line -> line.startsWith("model echo READY")), child.output());
            final String failed = lines.stream().filter(line -> line.startsWith("model torch_model")).findFirst()
                .orElseThrow(() -> new AssertionError(child.output()));
            assertTrue(failed.startsWith("model torch_model UNAVAILABLE "), failed);
            assertTrue(failed.contains("model 'torch_model' version 1: libtorch cannot be loaded ("), failed);
            assertTrue(failed.contains("Offline mode is enabled"), failed);
            assertTrue(failed.contains("Ingot's PyTorch backend loads libtorch from"
                + " ai.djl.pytorch:pytorch-native-cpu:2.7.1:linux-x86_64 and DJL's JNI from"
                + " ai.djl.pytorch:pytorch-jni:2.7.1-0.36.0, both on the class path, and never downloads them"),
                failed);
        }
        try (var files = Files.list(emptyCache))
        {
            assertEquals(List.of(), files.map(Path::toString).filter(name -> name.endsWith(".so")).toList(),
                "nothing was extracted or downloaded");
        }
    }
}
