package io.ingot.config;

import java.util.Optional;

/**
 * The platform and backend names Triton knows, how they pair, and the model file each expects in a version
 * directory (Triton's {@code constants.h} and {@code GetBackendType*}).
 */
public final class Platforms
{
    /** TensorRT engine platform. */
    public static final String TENSORRT_PLAN = "tensorrt_plan";
    /** ONNX Runtime platform. */
    public static final String ONNXRUNTIME_ONNX = "onnxruntime_onnx";
    /** PyTorch TorchScript platform. */
    public static final String PYTORCH_LIBTORCH = "pytorch_libtorch";
    /** Older spelling of {@link #PYTORCH_LIBTORCH} that Triton still recognizes. */
    public static final String LIBTORCH = "libtorch";
    /** PyTorch AOTInductor platform. */
    public static final String TORCH_AOTI = "torch_aoti";
    /** TensorFlow SavedModel platform. */
    public static final String TENSORFLOW_SAVEDMODEL = "tensorflow_savedmodel";
    /** TensorFlow GraphDef platform. */
    public static final String TENSORFLOW_GRAPHDEF = "tensorflow_graphdef";
    /** Ensemble platform: the only platform that has no backend. */
    public static final String ENSEMBLE = "ensemble";

    /** TensorRT backend. */
    public static final String TENSORRT = "tensorrt";
    /** ONNX Runtime backend. */
    public static final String ONNXRUNTIME = "onnxruntime";
    /** PyTorch backend (TorchScript and AOTInductor). */
    public static final String PYTORCH = "pytorch";
    /** TensorFlow backend. */
    public static final String TENSORFLOW = "tensorflow";
    /** OpenVINO backend. */
    public static final String OPENVINO = "openvino";
    /** Python backend. */
    public static final String PYTHON = "python";
    /** DALI backend. */
    public static final String DALI = "dali";

    /** TensorRT engine file. */
    public static final String PLAN_FILENAME = "model.plan";
    /** ONNX model: a file, or a directory holding {@code model.onnx} (large models with external data). */
    public static final String ONNX_FILENAME = "model.onnx";
    /** TorchScript file. */
    public static final String LIBTORCH_FILENAME = "model.pt";
    /** AOTInductor package. */
    public static final String AOTI_FILENAME = "model.pt2";
    /** SavedModel directory. */
    public static final String SAVEDMODEL_FILENAME = "model.savedmodel";
    /** GraphDef file. */
    public static final String GRAPHDEF_FILENAME = "model.graphdef";
    /** OpenVINO IR (with a {@code model.bin} beside it). */
    public static final String OPENVINO_FILENAME = "model.xml";
    /** Python model script. */
    public static final String PYTHON_FILENAME = "model.py";
    /** DALI pipeline. */
    public static final String DALI_FILENAME = "model.dali";

    /** The backends whose platform Triton checks; any platform goes with any other backend. */
    private enum Family
    {
        TENSORFLOW, TENSORRT, ONNXRUNTIME, PYTORCH, UNKNOWN
    }

    private Platforms()
    {
    }

    /**
     * Whether a platform may be given together with a backend. A backend Triton does not know (python, openvino,
     * custom ones) goes with any platform; a known one only with its own platforms.
     *
     * @param platform the {@code platform} field (may be empty)
     * @param backend  the {@code backend} field (may be empty)
     * @return whether the pair is consistent
     */
    public static boolean pairMatches(final String platform, final String backend)
    {
        final Family backendFamily = backendFamily(backend);
        return backendFamily == Family.UNKNOWN || backendFamily == platformFamily(platform);
    }

    private static Family backendFamily(final String backend)
    {
        return switch (backend)
        {
            case TENSORFLOW -> Family.TENSORFLOW;
            case TENSORRT -> Family.TENSORRT;
            case ONNXRUNTIME -> Family.ONNXRUNTIME;
            case PYTORCH -> Family.PYTORCH;
            default -> Family.UNKNOWN;
        };
    }

    private static Family platformFamily(final String platform)
    {
        return switch (platform)
        {
            case TENSORFLOW_GRAPHDEF, TENSORFLOW_SAVEDMODEL -> Family.TENSORFLOW;
            case TENSORRT_PLAN -> Family.TENSORRT;
            case ONNXRUNTIME_ONNX -> Family.ONNXRUNTIME;
            case PYTORCH_LIBTORCH, LIBTORCH, TORCH_AOTI -> Family.PYTORCH;
            default -> Family.UNKNOWN;
        };
    }

    /**
     * The model file name a platform or backend expects when {@code default_model_filename} is not set.
     *
     * @param platform the {@code platform} field (may be empty)
     * @param backend  the {@code backend} field (may be empty)
     * @return the file name, or empty when neither names a known kind of model file (ensembles have none)
     */
    public static Optional<String> defaultModelFilename(final String platform, final String backend)
    {
        final String byPlatform = switch (platform)
        {
            case TENSORRT_PLAN -> PLAN_FILENAME;
            case ONNXRUNTIME_ONNX -> ONNX_FILENAME;
            case PYTORCH_LIBTORCH, LIBTORCH -> LIBTORCH_FILENAME;
            case TORCH_AOTI -> AOTI_FILENAME;
            case TENSORFLOW_SAVEDMODEL -> SAVEDMODEL_FILENAME;
            case TENSORFLOW_GRAPHDEF -> GRAPHDEF_FILENAME;
            default -> null;
        };
        if (byPlatform != null)
        {
            return Optional.of(byPlatform);
        }
        return Optional.ofNullable(switch (backend)
        {
            case TENSORRT -> PLAN_FILENAME;
            case ONNXRUNTIME -> ONNX_FILENAME;
            case PYTORCH -> LIBTORCH_FILENAME;
            case OPENVINO -> OPENVINO_FILENAME;
            case PYTHON -> PYTHON_FILENAME;
            case DALI -> DALI_FILENAME;
            case TENSORFLOW -> null;
            case "" -> null;
            default -> "model." + backend;
        });
    }
}
