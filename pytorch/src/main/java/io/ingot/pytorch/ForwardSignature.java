package io.ingot.pytorch;

import java.util.ArrayList;
import java.util.List;

/**
 * The arguments (after {@code self}) and the return type of a TorchScript module's {@code forward}, as the archive's
 * TorchScript source declares them. This is what Triton's PyTorch backend reads from
 * {@code get_method("forward").function().getSchema()}; DJL exposes no schema, so it is read from the source that
 * libtorch compiles ({@link TorchScriptArchive}).
 *
 * @param arguments  the arguments, in order
 * @param returnType the return type as written ({@code Tensor}, {@code Tuple[Tensor, Tensor]}, {@code List[str]})
 */
record ForwardSignature(List<Argument> arguments, String returnType)
{
    /** The kinds of argument Triton's backend distinguishes ({@code c10::TypeKind}). */
    enum Kind
    {
        /** {@code Tensor}. */
        TENSOR,
        /** {@code List[...]}; Triton passes STRING inputs as {@code List[str]}. */
        LIST,
        /** {@code Dict[...]}; a single {@code Dict(str, Tensor)} argument takes every input by name. */
        DICT,
        /** Anything else ({@code int}, {@code Optional[Tensor]}, a class). */
        OTHER
    }

    /** What one element of {@code forward}'s result is. */
    enum Produced
    {
        /** A tensor. */
        TENSOR,
        /** A {@code List[str]} (a STRING output). */
        STRINGS,
        /** Something Triton cannot return (a scalar, a list of tensors, a dict). */
        UNSUPPORTED
    }

    /**
     * One argument.
     *
     * @param name its name, which Triton matches against configuration input names
     * @param type its TorchScript type as written
     */
    record Argument(String name, String type)
    {
        /** @return its kind */
        Kind kind()
        {
            final String t = type.strip();
            if (t.equals("Tensor"))
            {
                return Kind.TENSOR;
            }
            if (t.startsWith("List["))
            {
                return Kind.LIST;
            }
            return t.startsWith("Dict[") ? Kind.DICT : Kind.OTHER;
        }
    }

    ForwardSignature
    {
        arguments = List.copyOf(arguments);
    }

    /** @return the argument names, in order */
    List<String> names()
    {
        return arguments.stream().map(Argument::name).toList();
    }

    /**
     * What {@code forward} returns, element by element: one element for {@code Tensor} and {@code List[str]}, one
     * per member for a {@code Tuple[...]}.
     *
     * @return the elements, or {@code null} when the return type is a named type (a NamedTuple or class) whose
     *         members only the run shows
     */
    List<Produced> produced()
    {
        final String t = returnType.strip();
        if (t.startsWith("Tuple[") && t.endsWith("]"))
        {
            final List<Produced> members = new ArrayList<>();
            for (final String member : splitTopLevel(t.substring("Tuple[".length(), t.length() - 1), ','))
            {
                members.add(element(member));
            }
            return members;
        }
        if (t.startsWith("__torch__.") || t.startsWith("NamedTuple"))
        {
            return null;
        }
        return List.of(element(t));
    }

    private static Produced element(final String type)
    {
        final String t = type.strip();
        if (t.equals("Tensor"))
        {
            return Produced.TENSOR;
        }
        return t.replace(" ", "").equals("List[str]") ? Produced.STRINGS : Produced.UNSUPPORTED;
    }

    /**
     * Splits at separators outside brackets, parentheses and string literals; empty trailing pieces are dropped.
     *
     * @param text      the text
     * @param separator the separator
     * @return the stripped pieces
     */
    static List<String> splitTopLevel(final String text, final char separator)
    {
        final List<String> pieces = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (quote != 0)
            {
                if (c == '\\')
                {
                    i++;
                }
                else if (c == quote)
                {
                    quote = 0;
                }
                continue;
            }
            switch (c)
            {
                case '"', '\'' -> quote = c;
                case '[', '(', '{' -> depth++;
                case ']', ')', '}' -> depth--;
                default ->
                {
                    if (c == separator && depth == 0)
                    {
                        pieces.add(text.substring(start, i).strip());
                        start = i + 1;
                    }
                }
            }
        }
        final String last = text.substring(start).strip();
        if (!last.isEmpty())
        {
            pieces.add(last);
        }
        return pieces;
    }
}
