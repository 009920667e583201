package io.ingot.server.json;

/**
 * A JSON number kept as the text the client wrote, converted only when read (as Gson's own lazily parsed number
 * does), so that a long run of digits costs nothing until a field asks for it.
 */
final class JsonNumber extends Number
{
    private static final long serialVersionUID = 1L;

    private final String text;

    JsonNumber(final String text)
    {
        this.text = text;
    }

    @Override
    public int intValue()
    {
        return (int) longValue();
    }

    @Override
    public long longValue()
    {
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException notLong)
        {
            return (long) doubleValue();
        }
    }

    @Override
    public float floatValue()
    {
        return (float) doubleValue();
    }

    @Override
    public double doubleValue()
    {
        return Double.parseDouble(text);
    }

    @Override
    public String toString()
    {
        return text;
    }
}
