package io.ingot.cuda;

import java.util.Objects;

/** A cuBLAS call returned a {@code cublasStatus_t} other than {@code CUBLAS_STATUS_SUCCESS}. */
public final class CublasException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int status;
    private final String statusName;

    /**
     * @param call       the cuBLAS function that failed, e.g. {@code "cublasSgemm_v2"}
     * @param status     the {@code cublasStatus_t} value it returned
     * @param statusName cuBLAS's name for it ({@code cublasGetStatusName}), e.g. {@code CUBLAS_STATUS_INVALID_VALUE}
     */
    public CublasException(final String call, final int status, final String statusName)
    {
        super(call + " failed: " + statusName + " (" + status + ")");
        this.call = Objects.requireNonNull(call, "call");
        this.status = status;
        this.statusName = Objects.requireNonNull(statusName, "statusName");
    }

    /** @return the cuBLAS function that failed */
    public String call()
    {
        return call;
    }

    /** @return the {@code cublasStatus_t} value */
    public int status()
    {
        return status;
    }

    /** @return cuBLAS's name for the status */
    public String statusName()
    {
        return statusName;
    }
}
