/**
 * Devices and device memory as Java objects: {@link io.ingot.device.DeviceDiscovery} finds CUDA devices (or says
 * why there are none), {@link io.ingot.device.CudaStream}, {@link io.ingot.device.CudaEvent},
 * {@link io.ingot.device.DeviceBuffer}, {@link io.ingot.device.CudaGraph} and
 * {@link io.ingot.device.CudaGraphExec} own one CUDA resource each and free it exactly once on
 * {@code close()}, and {@link io.ingot.device.PinnedAllocators#automatic()} hands out page-locked host memory where a
 * GPU is present and page-aligned off-heap memory where not, behind {@link io.ingot.device.PinnedAllocator}.
 *
 * <p>Every type here uses the calling thread's current CUDA device ({@code cudaSetDevice}) when it creates its
 * resource. Using a resource after {@code close()} throws {@link java.lang.IllegalStateException}; closing twice
 * does nothing. Closing must not race with use on another thread: the owner closes.
 */
package io.ingot.device;
