package io.ingot.server.json;

import io.netty.buffer.ByteBuf;

/**
 * Where a value sits in a request body, not yet parsed: the {@code data} of an input tensor, which
 * {@link JsonTensorReader} converts straight from the body's bytes into the tensor's binary layout, without building
 * a tree of one object per element (which would cost some 40 times the text's size). Carried in the parsed request
 * as the number of a {@link com.google.gson.JsonPrimitive}, so that the request keeps Gson's types; it is not a
 * number, and reading it as one throws.
 *
 * <p>Valid while the body is.
 */
public final class JsonSpan extends Number
{
    private static final long serialVersionUID = 1L;

    private final transient ByteBuf body;
    private final int start;
    private final int end;

    JsonSpan(final ByteBuf body, final int start, final int end)
    {
        this.body = body;
        this.start = start;
        this.end = end;
    }

    /** @return the body */
    ByteBuf body()
    {
        return body;
    }

    /** @return index of the value's first byte in the body */
    int start()
    {
        return start;
    }

    /** @return index after its last byte */
    int end()
    {
        return end;
    }

    @Override
    public int intValue()
    {
        throw notANumber();
    }

    @Override
    public long longValue()
    {
        throw notANumber();
    }

    @Override
    public float floatValue()
    {
        throw notANumber();
    }

    @Override
    public double doubleValue()
    {
        throw notANumber();
    }

    private static UnsupportedOperationException notANumber()
    {
        return new UnsupportedOperationException("a tensor's JSON data is read by JsonTensorReader, not as a number");
    }

    @Override
    public String toString()
    {
        return "<JSON data of " + (end - start) + " bytes>";
    }
}
