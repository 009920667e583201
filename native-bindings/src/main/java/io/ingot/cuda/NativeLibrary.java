package io.ingot.cuda;

import java.util.List;
import java.util.Objects;

/**
 * What to look for when loading a native library: its file name (the soname, e.g. {@code libcudart.so.13}), a
 * human-readable description for error messages, and the folders inside a Python {@code site-packages} where the
 * NVIDIA CUDA wheels put it.
 *
 * @param fileName    the exact file name, which is also the soname the system {@code dlopen} search is asked for
 * @param description what the library is, for error messages (e.g. "CUDA runtime 13")
 * @param wheelDirs   folders relative to a {@code site-packages} directory that may hold the file, in search order
 * @param installHint one sentence telling a user how to get the library, appended to "not found" errors
 */
public record NativeLibrary(String fileName, String description, List<String> wheelDirs, String installHint)
{
    /** The CUDA 13 runtime. The {@code nvidia-cuda-runtime} 13.x wheel puts it in {@code nvidia/cu13/lib}. */
    public static final NativeLibrary CUDART = new NativeLibrary(
        "libcudart.so.13",
        "CUDA runtime 13",
        List.of("nvidia/cu13/lib", "nvidia/cuda_runtime/lib"),
        "Install the CUDA 13 toolkit or the nvidia-cuda-runtime 13.x wheel, or point CUDA_HOME, LD_LIBRARY_PATH or "
            + "-D" + LibrarySearchPath.EXTRA_DIRS_PROPERTY + " at the folder that holds libcudart.so.13.");

    /** cuBLASLt 13, which {@code libcublas.so.13} needs and which is therefore loaded first. */
    public static final NativeLibrary CUBLAS_LT = new NativeLibrary(
        "libcublasLt.so.13",
        "cuBLASLt 13 (needed by cuBLAS)",
        List.of("nvidia/cu13/lib", "nvidia/cublas/lib"),
        "Install cuBLAS 13 (CUDA toolkit package libcublas-13-x or the nvidia-cublas 13.x wheel), or point "
            + "CUDA_HOME, LD_LIBRARY_PATH or -D" + LibrarySearchPath.EXTRA_DIRS_PROPERTY
            + " at the folder that holds libcublasLt.so.13.");

    /** cuBLAS 13. */
    public static final NativeLibrary CUBLAS = new NativeLibrary(
        "libcublas.so.13",
        "cuBLAS 13",
        List.of("nvidia/cu13/lib", "nvidia/cublas/lib"),
        "Install cuBLAS 13 (CUDA toolkit package libcublas-13-x or the nvidia-cublas 13.x wheel), or point "
            + "CUDA_HOME, LD_LIBRARY_PATH or -D" + LibrarySearchPath.EXTRA_DIRS_PROPERTY
            + " at the folder that holds libcublas.so.13.");

    /**
     * Validates and copies the components.
     *
     * @throws IllegalArgumentException when the file name is blank or contains a path separator
     */
    public NativeLibrary
    {
        Objects.requireNonNull(fileName, "fileName");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(installHint, "installHint");
        if (fileName.isBlank() || fileName.contains("/"))
        {
            throw new IllegalArgumentException(
                "native library file name must be a bare file name like libcudart.so.13, was '" + fileName + "'");
        }
        wheelDirs = List.copyOf(wheelDirs);
    }
}
