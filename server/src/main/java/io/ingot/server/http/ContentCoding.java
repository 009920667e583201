package io.ingot.server.http;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * HTTP content codings of infer requests and responses, as Triton supports them: {@code gzip}, and {@code deflate}
 * meaning zlib-wrapped deflate (RFC 1950); {@code identity} or none passes through.
 */
public enum ContentCoding
{
    /** No coding. */
    IDENTITY("identity"),
    /** gzip (RFC 1952). */
    GZIP("gzip"),
    /** zlib-wrapped deflate (RFC 1950), what Python's {@code zlib.compress} produces. */
    DEFLATE("deflate");

    private final String token;

    ContentCoding(final String token)
    {
        this.token = token;
    }

    /** @return the header token. */
    public String token()
    {
        return token;
    }

    /**
     * Reads a request's {@code Content-Encoding}.
     *
     * @param header the header value, or {@code null}
     * @return the coding
     * @throws InferenceException UNSUPPORTED (501) for any other coding
     */
    public static ContentCoding ofContentEncoding(final String header)
    {
        if (header == null)
        {
            return IDENTITY;
        }
        final String value = header.trim().toLowerCase(Locale.ROOT);
        return switch (value)
        {
            case "", "identity" -> IDENTITY;
            case "gzip", "x-gzip" -> GZIP;
            case "deflate" -> DEFLATE;
            default -> throw new InferenceException(ErrorCode.UNSUPPORTED, "unsupported Content-Encoding '" + header
                + "': this server accepts gzip, deflate and identity");
        };
    }

    /**
     * Chooses a response coding from {@code Accept-Encoding}: among gzip, deflate and identity, the highest
     * q-value wins (on a tie the earlier one); {@code q=0} excludes a coding; other codings are ignored.
     *
     * @param header the header value, or {@code null}
     * @return the coding to use
     */
    public static ContentCoding negotiate(final String header)
    {
        if (header == null || header.isBlank())
        {
            return IDENTITY;
        }
        ContentCoding best = IDENTITY;
        double bestQ = -1;
        for (final String part : header.split(","))
        {
            final String[] pieces = part.split(";");
            final String name = pieces[0].trim().toLowerCase(Locale.ROOT);
            final ContentCoding coding = switch (name)
            {
                case "gzip", "x-gzip" -> GZIP;
                case "deflate" -> DEFLATE;
                case "identity" -> IDENTITY;
                default -> null;
            };
            if (coding == null)
            {
                continue;
            }
            double q = 1.0;
            for (int i = 1; i < pieces.length; i++)
            {
                final String parameter = pieces[i].trim();
                if (parameter.startsWith("q="))
                {
                    try
                    {
                        q = Double.parseDouble(parameter.substring(2));
                    }
                    catch (final NumberFormatException badQ)
                    {
                        q = 0;
                    }
                }
            }
            if (q > 0 && q > bestQ)
            {
                best = coding;
                bestQ = q;
            }
        }
        return best;
    }

    /**
     * Decodes a body. gzip and zlib are told apart by their header bytes, as Triton's decompressor does. The decoded
     * body's memory grows as it is decoded and is counted in {@code budget} until the returned buffer is released.
     *
     * @param body       the coded body (not released here)
     * @param inputLimit Triton's {@code --http-max-input-size}: the most decoded bytes accepted
     * @param budget     the memory all request bodies may hold
     * @param alloc      where the decoded body is allocated
     * @return a new buffer with the decoded body, owned by the caller
     * @throws InferenceException INVALID_ARG for corrupt data or, with Triton's text, a decoded body over the limit;
     *                            UNAVAILABLE when the budget cannot hold the decoded body
     */
    public ByteBuf decode(final ByteBuf body, final HttpInputLimit inputLimit, final RequestBodyBudget budget,
        final ByteBufAllocator alloc)
    {
        final int limit = (int) Math.min(inputLimit.bytes(), HttpBodyAggregator.MAX_BODY_BYTES);
        long reserved = Math.min(limit, Math.max(256, body.readableBytes() * 4L));
        if (!budget.tryReserve(reserved))
        {
            throw budget.exhausted(reserved);
        }
        final ByteBuf out = alloc.directBuffer((int) reserved, limit);
        final boolean gzipMagic = body.readableBytes() >= 2 && body.getUnsignedByte(body.readerIndex()) == 0x1f
            && body.getUnsignedByte(body.readerIndex() + 1) == 0x8b;
        try (InputStream in = gzipMagic
            ? new GZIPInputStream(new ByteBufInputStream(body.duplicate()), 8192)
            : new InflaterInputStream(new ByteBufInputStream(body.duplicate())))
        {
            final byte[] chunk = new byte[16384];
            int read;
            while ((read = in.read(chunk)) > 0)
            {
                if (read > limit - out.writerIndex())
                {
                    throw inputLimit.decompressedTooLarge();
                }
                final int needed = out.writerIndex() + read;
                if (needed > out.capacity())
                {
                    final long grown = Math.min(limit, Math.max(needed, 2L * out.capacity()));
                    if (!budget.tryReserve(grown - reserved))
                    {
                        throw budget.exhausted(grown - reserved);
                    }
                    reserved = grown;
                    out.capacity((int) grown);
                }
                out.writeBytes(chunk, 0, read);
            }
            return new BudgetedByteBuf(out, budget, reserved);
        }
        catch (final ZipException corrupt)
        {
            release(out, budget, reserved);
            throw new InferenceException(ErrorCode.INVALID_ARG, "unable to decompress the " + token
                + " request body: " + corrupt.getMessage());
        }
        catch (final IOException failure)
        {
            release(out, budget, reserved);
            throw new InferenceException(ErrorCode.INVALID_ARG, "unable to decompress the " + token
                + " request body: " + failure);
        }
        catch (final RuntimeException failure)
        {
            release(out, budget, reserved);
            throw failure;
        }
    }

    private static void release(final ByteBuf out, final RequestBodyBudget budget, final long reserved)
    {
        out.release();
        budget.release(reserved);
    }

    /**
     * Encodes a body with this coding.
     *
     * @param body  the body (released here)
     * @param alloc where the coded body is allocated
     * @return the coded body, owned by the caller
     */
    public ByteBuf encode(final ByteBuf body, final ByteBufAllocator alloc)
    {
        if (this == IDENTITY)
        {
            return body;
        }
        final ByteBuf out = alloc.directBuffer(Math.max(64, body.readableBytes() / 2));
        try (OutputStream coder = this == GZIP
            ? new GZIPOutputStream(new ByteBufOutputStream(out), 8192)
            : new DeflaterOutputStream(new ByteBufOutputStream(out)))
        {
            body.readBytes(coder, body.readableBytes());
        }
        catch (final IOException impossible)
        {
            out.release();
            throw new IllegalStateException("compressing a response in memory failed", impossible);
        }
        finally
        {
            body.release();
        }
        return out;
    }
}
