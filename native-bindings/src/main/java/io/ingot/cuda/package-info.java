/**
 * FFM bindings for the CUDA 13 runtime ({@link io.ingot.cuda.CudaRuntime}) and cuBLAS 13
 * ({@link io.ingot.cuda.Cublas}), and the loading of their libraries.
 *
 * <p>The bindings are hand-written in the shape jextract generates: one class per library, one lazily resolved
 * {@code static final MethodHandle} per function called with {@code invokeExact}, constants and struct layouts
 * named as in the C headers. {@code CudaHeaderConformanceTest} compiles every constant and layout against the
 * installed headers with the C compiler, and {@code tools/jextract.sh} regenerates raw bindings where jextract is
 * installed, for comparison.
 *
 * <p>Libraries are found by {@link io.ingot.cuda.NativeLibraryLoader} along a
 * {@link io.ingot.cuda.LibrarySearchPath} ({@code -Dingot.native.path}, {@code $CUDA_HOME}, {@code /usr/local/cuda},
 * {@code LD_LIBRARY_PATH}, the NVIDIA Python wheels, then the system search) when the first function of a library
 * is called. A missing library surfaces as {@link io.ingot.cuda.NativeLibraryNotFoundException} listing every place
 * tried, on every call; a failing CUDA call as {@link io.ingot.cuda.CudaException} with CUDA's error name, which
 * also says whether the machine simply has no usable GPU. {@link io.ingot.cuda.HostCallbacks} turns
 * {@code cudaLaunchHostFunc} into futures.
 *
 * <p>Nothing outside this module calls a native symbol; the Java resource types built on these bindings live in
 * {@code io.ingot.device}.
 */
package io.ingot.cuda;
