package io.ingot.pytorch.script;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes the subset of Python's pickle protocol 2 that TorchScript archives use ({@code data.pkl},
 * {@code constants.pkl}): the opcodes PyTorch's {@code Pickler} emits and its {@code Unpickler} reads
 * ({@code torch/csrc/jit/serialization/pickler.cpp}, {@code unpickler.cpp}). Each method appends one instruction;
 * the caller composes them in the order the unpickler's stack machine expects. No memo (BINPUT) is written: every
 * value is written where it is used.
 *
 * <p>Not thread-safe; one writer per pickle.
 */
public final class PickleWriter
{
    private static final int PROTO = 0x80;
    private static final int STOP = '.';
    private static final int MARK = '(';
    private static final int GLOBAL = 'c';
    private static final int EMPTY_TUPLE = ')';
    private static final int TUPLE = 't';
    private static final int EMPTY_DICT = '}';
    private static final int SETITEMS = 'u';
    private static final int EMPTY_LIST = ']';
    private static final int APPENDS = 'e';
    private static final int NEWOBJ = 0x81;
    private static final int BUILD = 'b';
    private static final int REDUCE = 'R';
    private static final int BINPERSID = 'Q';
    private static final int BININT = 'J';
    private static final int LONG1 = 0x8a;
    private static final int BINFLOAT = 'G';
    private static final int BINUNICODE = 'X';
    private static final int NEWTRUE = 0x88;
    private static final int NEWFALSE = 0x89;
    private static final int NONE = 'N';

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** Starts a protocol-2 pickle (the only protocol TorchScript's unpickler reads). */
    public PickleWriter()
    {
        out.write(PROTO);
        out.write(2);
    }

    /**
     * Pushes a global: a class or function by module and name ({@code GLOBAL}).
     *
     * @param module the module ({@code __torch__}, {@code torch._utils})
     * @param name   the name in it
     * @return this writer
     */
    public PickleWriter global(final String module, final String name)
    {
        out.write(GLOBAL);
        writeAscii(module + "\n" + name + "\n");
        return this;
    }

    /** @return this writer, after pushing the position that {@link #tuple}, {@link #setItems} and lists pop to. */
    public PickleWriter mark()
    {
        out.write(MARK);
        return this;
    }

    /** @return this writer, after pushing {@code ()}. */
    public PickleWriter emptyTuple()
    {
        out.write(EMPTY_TUPLE);
        return this;
    }

    /** @return this writer, after replacing everything above the last mark by a tuple of it. */
    public PickleWriter tuple()
    {
        out.write(TUPLE);
        return this;
    }

    /** @return this writer, after pushing an empty dict. */
    public PickleWriter emptyDict()
    {
        out.write(EMPTY_DICT);
        return this;
    }

    /** @return this writer, after moving the key/value pairs above the last mark into the dict below it. */
    public PickleWriter setItems()
    {
        out.write(SETITEMS);
        return this;
    }

    /** @return this writer, after pushing an empty list. */
    public PickleWriter emptyList()
    {
        out.write(EMPTY_LIST);
        return this;
    }

    /** @return this writer, after moving the values above the last mark into the list below it. */
    public PickleWriter appends()
    {
        out.write(APPENDS);
        return this;
    }

    /** @return this writer, after instantiating the class below the argument tuple on the stack. */
    public PickleWriter newObject()
    {
        out.write(NEWOBJ);
        return this;
    }

    /** @return this writer, after setting the object below the state on the stack from that state. */
    public PickleWriter build()
    {
        out.write(BUILD);
        return this;
    }

    /** @return this writer, after calling the global below the argument tuple with it. */
    public PickleWriter reduce()
    {
        out.write(REDUCE);
        return this;
    }

    /** @return this writer, after replacing the tuple on the stack by the persistent object it identifies. */
    public PickleWriter persistentId()
    {
        out.write(BINPERSID);
        return this;
    }

    /**
     * @param value an integer
     * @return this writer, after pushing it (4 bytes when it fits, else 8, as PyTorch's pickler writes them)
     */
    public PickleWriter integer(final long value)
    {
        if (value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE)
        {
            out.write(BININT);
            writeLittleEndian(value, 4);
        }
        else
        {
            out.write(LONG1);
            out.write(8);
            writeLittleEndian(value, 8);
        }
        return this;
    }

    /**
     * @param value a float
     * @return this writer, after pushing it (pickle floats are big-endian doubles)
     */
    public PickleWriter floating(final double value)
    {
        out.write(BINFLOAT);
        final long bits = Double.doubleToLongBits(value);
        for (int shift = 56; shift >= 0; shift -= 8)
        {
            out.write((int)(bits >>> shift) & 0xff);
        }
        return this;
    }

    /**
     * @param value a string
     * @return this writer, after pushing it (UTF-8)
     */
    public PickleWriter string(final String value)
    {
        final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.write(BINUNICODE);
        writeLittleEndian(bytes.length, 4);
        out.writeBytes(bytes);
        return this;
    }

    /**
     * @param value a boolean
     * @return this writer, after pushing it
     */
    public PickleWriter bool(final boolean value)
    {
        out.write(value ? NEWTRUE : NEWFALSE);
        return this;
    }

    /** @return this writer, after pushing {@code None}. */
    public PickleWriter none()
    {
        out.write(NONE);
        return this;
    }

    /** @return the finished pickle ({@code STOP} appended); the writer must not be used afterwards. */
    public byte[] finish()
    {
        out.write(STOP);
        return out.toByteArray();
    }

    private void writeAscii(final String text)
    {
        out.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    }

    private void writeLittleEndian(final long value, final int bytes)
    {
        for (int i = 0; i < bytes; i++)
        {
            out.write((int)(value >>> (8 * i)) & 0xff);
        }
    }
}
