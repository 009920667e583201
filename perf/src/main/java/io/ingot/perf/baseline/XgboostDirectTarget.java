package io.ingot.perf.baseline;

import io.ingot.api.TensorMetadata;
import io.ingot.fil.xgboost.DensePrediction;
import io.ingot.fil.xgboost.XgbBooster;
import io.ingot.fil.xgboost.Xgboost;
import io.ingot.fil.xgboost.XgboostException;
import io.ingot.perf.LoadClient;
import io.ingot.perf.PerfException;
import io.ingot.perf.RequestInputs;
import io.ingot.tensor.DataType;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The baseline a user has without a server: XGBoost's C API called directly on the caller's thread, the cheapest way
 * there is: one booster shared by every client (XGBoost documents prediction on a tree booster as thread-safe), each
 * client with its rows in native memory of its own and its own in-place prediction call
 * ({@code XGBoosterPredictFromDense}, nothing allocated per call on the Java side), and the result copied once into
 * the client's output memory, as Ingot writes it once into the response. With a batch size above one, every request
 * is a pre-formed batch: the ideal a dynamic batcher can only approach.
 */
public final class XgboostDirectTarget extends DirectTarget
{
    private final Path modelFile;
    private final int threads;
    private final XgbBooster booster;
    private final long features;

    /**
     * @param modelFile an XGBoost JSON or UBJSON model
     * @param threads   XGBoost's {@code nthread}, as the FIL backend's {@code cpu_nthread} sets it (0 or less: the
     *                  library's default)
     * @throws PerfException when the model cannot be loaded
     */
    public XgboostDirectTarget(final Path modelFile, final int threads)
    {
        this.modelFile = modelFile;
        this.threads = threads;
        try
        {
            booster = XgbBooster.load(Files.readAllBytes(modelFile));
            if (threads > 0)
            {
                booster.setParam("nthread", Integer.toString(threads));
            }
            features = booster.numFeatures();
        }
        catch (final IOException | XgboostException | io.ingot.fil.bundled.NativeLibraryUnavailableException ex)
        {
            throw PerfException.failure("XGBoost cannot load " + modelFile + ": " + ex.getMessage(), ex);
        }
    }

    @Override
    public String describe()
    {
        return "XGBoost direct (" + modelFile.getFileName() + ", nthread=" + (threads > 0 ? threads : "default")
            + ")";
    }

    @Override
    public ModelInfo modelInfo()
    {
        return new ModelInfo(Integer.MAX_VALUE, List.of(new TensorMetadata("input__0", DataType.FP32,
            List.of(-1L, features))), List.of("output__0"));
    }

    @Override
    protected LoadClient newClient(final RequestInputs inputs)
    {
        return new Client(inputs);
    }

    @Override
    public void close()
    {
        booster.close();
    }

    /** One caller: its rows, its prediction call, its output memory. */
    private final class Client implements LoadClient
    {
        private final Arena arena = Arena.ofShared();
        private final MemorySegment rows;
        private final long count;
        private final DensePrediction prediction = new DensePrediction(booster, Xgboost.PREDICT_NORMAL, "<f4");
        private MemorySegment output;

        Client(final RequestInputs inputs)
        {
            final RequestInputs.Tensor tensor = inputs.inputs().getFirst();
            rows = arena.allocate(tensor.data().length, Float.BYTES);
            MemorySegment.copy(tensor.data(), 0, rows, ValueLayout.JAVA_BYTE, 0, tensor.data().length);
            count = tensor.shape()[0];
        }

        @Override
        public String call()
        {
            try
            {
                final int width = prediction.predict(rows, count, features);
                if (output == null)
                {
                    output = arena.allocate(ValueLayout.JAVA_FLOAT, count * width);
                }
                prediction.copyResult(output, 0, count * width);
                return null;
            }
            catch (final XgboostException ex)
            {
                return ex.getMessage();
            }
        }

        @Override
        public void send(final Sink sink)
        {
            sink.completed(call());
        }

        @Override
        public void close()
        {
            prediction.close();
            arena.close();
        }
    }
}
