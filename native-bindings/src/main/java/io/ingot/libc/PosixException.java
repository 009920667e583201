package io.ingot.libc;

/**
 * A libc call that failed: the call, {@code errno} and its name and description, e.g.
 * {@code "open failed: ELOOP (40): too many levels of symbolic links"}.
 */
public final class PosixException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;

    /**
     * @param call  the libc function
     * @param errno the {@code errno} it left
     */
    public PosixException(final String call, final int errno)
    {
        super(call + " failed: " + name(errno) + " (" + errno + "): " + describe(errno));
        this.call = call;
        this.errno = errno;
    }

    /** @return the libc function that failed */
    public String call()
    {
        return call;
    }

    /** @return the {@code errno} it left ({@link Posix#ENOENT}, {@link Posix#ELOOP}, ...) */
    public int errno()
    {
        return errno;
    }

    /**
     * @param errno an {@code errno} value
     * @return its symbolic name, or {@code "errno N"} for one the bindings do not name
     */
    public static String name(final int errno)
    {
        return switch (errno)
        {
            case Posix.EPERM -> "EPERM";
            case Posix.ENOENT -> "ENOENT";
            case Posix.ENXIO -> "ENXIO";
            case Posix.EBADF -> "EBADF";
            case Posix.ENOMEM -> "ENOMEM";
            case Posix.EACCES -> "EACCES";
            case Posix.ENODEV -> "ENODEV";
            case Posix.ENOTDIR -> "ENOTDIR";
            case Posix.EISDIR -> "EISDIR";
            case Posix.EINVAL -> "EINVAL";
            case Posix.ENFILE -> "ENFILE";
            case Posix.EMFILE -> "EMFILE";
            case Posix.ENAMETOOLONG -> "ENAMETOOLONG";
            case Posix.ELOOP -> "ELOOP";
            case Posix.EOVERFLOW -> "EOVERFLOW";
            default -> "errno " + errno;
        };
    }

    /**
     * @param errno an {@code errno} value
     * @return what it means, in the words of glibc's {@code strerror} for the values the bindings name
     */
    public static String describe(final int errno)
    {
        return switch (errno)
        {
            case Posix.EPERM -> "operation not permitted";
            case Posix.ENOENT -> "no such file or directory";
            case Posix.ENXIO -> "no such device or address";
            case Posix.EBADF -> "bad file descriptor";
            case Posix.ENOMEM -> "cannot allocate memory";
            case Posix.EACCES -> "permission denied";
            case Posix.ENODEV -> "no such device";
            case Posix.ENOTDIR -> "not a directory";
            case Posix.EISDIR -> "is a directory";
            case Posix.EINVAL -> "invalid argument";
            case Posix.ENFILE -> "too many open files in system";
            case Posix.EMFILE -> "too many open files";
            case Posix.ENAMETOOLONG -> "file name too long";
            case Posix.ELOOP -> "too many levels of symbolic links";
            case Posix.EOVERFLOW -> "value too large for defined data type";
            default -> "see errno(3)";
        };
    }
}
