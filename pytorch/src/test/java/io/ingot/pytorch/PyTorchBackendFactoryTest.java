package io.ingot.pytorch;

import io.ingot.backend.Backend;
import io.ingot.backend.BackendFactory;
import io.ingot.backend.Engine;
import io.ingot.backend.ModelContext;
import io.ingot.pytorch.script.ScriptModule;
import io.ingot.pytorch.script.TorchScriptWriter;
import io.ingot.testing.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loading TorchScript models: Triton's names, its parameters, and a specific error for every kind of bad input. */
class PyTorchBackendFactoryTest
{
    private static final String ADD_SUB = """
        name: "add_sub" backend: "pytorch" max_batch_size: 8
        input { name: "INPUT__0" data_type: TYPE_FP32 dims: [4] }
        input { name: "INPUT__1" data_type: TYPE_FP32 dims: [4] }
        output { name: "OUTPUT__0" data_type: TYPE_FP32 dims: [4] }
        output { name: "OUTPUT__1" data_type: TYPE_FP32 dims: [4] }
        """;

    @TempDir
    Path directory;

    @Test
    void isFoundByServiceLoaderUnderTritonsNames()
    {
        final BackendFactory found = ServiceLoader.load(BackendFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(candidate -> candidate.name().equals("pytorch"))
            .findFirst().orElseThrow();
        assertEquals(Set.of("pytorch_libtorch", "libtorch"), found.platforms());
    }

    @Test
    void autoCompleteLeavesTheConfigurationAsTritonDoes()
    {
        final var config = TestModels.config("name: 'bare' platform: 'pytorch_libtorch'");
        assertSame(config, new PyTorchBackendFactory().autoComplete(config, directory, List.of()));
    }

    @Test
    void aMissingFileGetsTritonsMessage()
    {
        final Path missing = directory.resolve("1").resolve("model.pt");
        final ModelLoadException error = assertThrows(ModelLoadException.class, () -> TorchModels.load(ADD_SUB,
            missing));
        assertEquals("model 'add_sub' version 1: unable to find '" + missing.toAbsolutePath() + "' for model instance"
            + " 'add_sub'", error.getMessage());
    }

    @Test
    void aFileThatIsNoArchiveIsNamed() throws Exception
    {
        final Path file = directory.resolve("1").resolve("model.pt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "this is not a TorchScript model at all");
        final String message = assertThrows(ModelLoadException.class, () -> TorchModels.load(ADD_SUB, file))
            .getMessage();
        assertTrue(message.startsWith("model 'add_sub' version 1: '" + file + "' is not a TorchScript model: it is not"
            + " a zip archive ("), message);
        assertTrue(message.endsWith("torch.jit.save writes TorchScript models as zip archives"), message);
    }

    @Test
    void aTorchSavePickleIsToldApartFromATorchScriptArchive() throws Exception
    {
        final Path file = directory.resolve("1").resolve("model.pt");
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[] {(byte)0x80, 0x02, '}', 'q', 0, '.'});
        final String message = assertThrows(ModelLoadException.class, () -> TorchModels.load(ADD_SUB, file))
            .getMessage();
        assertTrue(message.contains("it was written by torch.save(), but torch::jit::load() can only load files"
            + " produced by torch.jit.save()"), message);
    }

    @Test
    void aTruncatedArchiveIsRefused() throws Exception
    {
        final Path file = TorchModels.write(TorchModels.addSub("a", "b"), directory);
        final byte[] whole = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(whole, whole.length / 2));
        final String message = assertThrows(ModelLoadException.class, () -> TorchModels.load(ADD_SUB, file))
            .getMessage();
        assertTrue(message.startsWith("model 'add_sub' version 1: '" + file + "' is not a TorchScript model: it is not"
            + " a zip archive"), message);
    }

    @Test
    void codeLibtorchCannotCompileGetsLibtorchsOwnError() throws Exception
    {
        final ScriptModule broken = ScriptModule.builder("Broken").argument("INPUT__0", "Tensor")
            .argument("INPUT__1", "Tensor").returns("Tuple[Tensor, Tensor]")
            .body("return (torch.no_such_operator(INPUT__0), INPUT__1)").build();
        final Path file = TorchModels.write(broken, directory);
        final String message = assertThrows(ModelLoadException.class, () -> TorchModels.load(ADD_SUB, file))
            .getMessage();
        assertTrue(message.startsWith("model 'add_sub' version 1: libtorch cannot load '" + file + "': "), message);
        assertTrue(message.contains("no_such_operator"), message);
    }

    @Test
    void moreConfiguredInputsThanForwardTakesIsTritonsCountError() throws Exception
    {
        final Path file = TorchModels.write(TorchModels.addSub("a", "b"), directory);
        final String config = ADD_SUB + "input { name: 'INPUT__2' data_type: TYPE_FP32 dims: [4] }";
        final String message = assertThrows(ModelLoadException.class, () -> TorchModels.load(config, file))
            .getMessage();
        assertEquals("model 'add_sub' version 1: unable to load model 'add_sub', configuration expects 3 inputs, model"
            + " provides 2 (forward(a, b))", message);
    }

    @Test
    void anOutputIndexBeyondWhatForwardReturnsIsRefusedAtLoad() throws Exception
    {
        final Path file = TorchModels.write(TorchModels.addSub("a", "b"), directory);
        final String config = ADD_SUB.replace("OUTPUT__1", "OUTPUT__2");
        final String message = assertThrows(ModelLoadException.class, () -> TorchModels.load(config, file))
            .getMessage();
        assertEquals("model 'add_sub' version 1: The output OUTPUT__2 in the model configuration refers to an output"
            + " index which doesn't exist. This model has 2 outputs (forward returns Tuple[Tensor, Tensor])", message);
    }

    @Test
    void datatypesLibtorchCannotTakeHereAreEachNamed() throws Exception
    {
        final Path file = TorchModels.write(TorchModels.addSub("a", "b"), directory);
        final String config = ADD_SUB.replaceFirst("TYPE_FP32", "TYPE_INT16").replaceFirst("TYPE_FP32", "TYPE_UINT32")
            .replace("output { name: \"OUTPUT__1\" data_type: TYPE_FP32", "output { name: \"OUTPUT__1\" data_type:"
                + " TYPE_BF16");
        final String message = assertThrows(ModelLoadException.class, () -> TorchModels.load(config, file))
            .getMessage();
        assertTrue(message.contains("unsupported datatype TYPE_INT16 for input 'INPUT__0' for model 'add_sub':"
            + " Triton's PyTorch backend maps it to torch.int16, but DJL's PyTorch JNI (0.36) has no int16 tensors;"
            + " use TYPE_INT32"), message);
        assertTrue(message.contains("unsupported datatype TYPE_UINT32 for input 'INPUT__1' for model 'add_sub'"),
            message);
        assertTrue(message.contains("unsupported datatype TYPE_BF16 for output 'OUTPUT__1' for model 'add_sub'"),
            message);
    }

    @Test
    void aStringInputWhereForwardTakesATensorIsRefused() throws Exception
    {
        final Path file = TorchModels.write(TorchModels.addSub("a", "b"), directory);
        final String config = ADD_SUB.replaceFirst("data_type: TYPE_FP32 dims: \\[4\\]",
            "data_type: TYPE_STRING dims: [1] reshape { shape: [] }");
        final String message = assertThrows(ModelLoadException.class, () -> TorchModels.load(config, file))
            .getMessage();
        assertEquals("model 'add_sub' version 1: input 'INPUT__0' is TYPE_STRING in the configuration, but forward's"
            + " argument 'a' is Tensor", message);
    }

    @Test
    void badParameterValuesAreNamed() throws Exception
    {
        final Path file = TorchModels.write(TorchModels.addSub("a", "b"), directory);
        final String config = ADD_SUB + "parameters { key: 'INFERENCE_MODE' value { string_value: 'maybe' } }";
        final String message = assertThrows(ModelLoadException.class, () -> TorchModels.load(config, file))
            .getMessage();
        assertEquals("model 'add_sub': parameter INFERENCE_MODE: failed to convert 'maybe' to boolean (true, on, 1,"
            + " false, off or 0)", message);
    }

    @Test
    void eachInstanceHasItsOwnModuleUnlessWeightsAreShared() throws Exception
    {
        final Path file = TorchModels.write(TorchModels.addSub("a", "b"), directory);
        for (final boolean sharing : new boolean[] {false, true})
        {
            final String config = ADD_SUB + "parameters { key: 'ENABLE_WEIGHT_SHARING' value { string_value: '"
                + sharing + "' } }";
            final ModelContext context = TorchModels.context(config, file);
            try (Backend backend = new PyTorchBackendFactory().load(context);
                Engine first = TorchModels.engine(backend, context, 0);
                Engine second = TorchModels.engine(backend, context, 1))
            {
                final var a = ((TorchEngine)first).module();
                final var b = ((TorchEngine)second).module();
                if (sharing)
                {
                    assertSame(a, b);
                }
                else
                {
                    assertNotSame(a, b);
                }
            }
        }
    }

    @Test
    void theArchiveIsWhatTorchJitSaveWrites() throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        TorchScriptWriter.write(TorchModels.linear(), "model", out);
        final String text = new String(out.toByteArray(), StandardCharsets.ISO_8859_1);
        for (final String entry : List.of("model/data.pkl", "model/code/__torch__.py", "model/data/0", "model/data/1",
            "model/constants.pkl", "model/version", "model/byteorder"))
        {
            assertTrue(text.contains(entry), entry);
        }
        assertEquals("""
            class Linear(Module):
              __parameters__ = ["weight", "bias", ]
              __buffers__ = []
              weight : Tensor
              bias : Tensor
              training : bool
              def forward(self: __torch__.Linear,
                x: Tensor) -> Tensor:
                return torch.linear(x, self.weight, self.bias)
            """, TorchScriptWriter.source(TorchModels.linear()));
    }
}
