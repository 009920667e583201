package io.ingot.pytorch.script;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A TorchScript module of one class with a {@code forward} method: what {@link TorchScriptWriter} turns into a
 * {@code model.pt} archive. The method is TorchScript source (the Python subset {@code torch.jit.save} writes into
 * {@code code/}); its arguments and return type are TorchScript types ({@code Tensor}, {@code List[str]},
 * {@code Dict[str, Tensor]}, {@code Tuple[Tensor, Tensor]}). The parameters become attributes of the module, stored as
 * tensors in the archive's {@code data/} records.
 *
 * @param className  the class name, a Python identifier; the archive names it {@code __torch__.<className>}
 * @param arguments  {@code forward}'s arguments after {@code self}: name to TorchScript type, in order
 * @param returnType {@code forward}'s return type
 * @param body       {@code forward}'s body, one statement per line, without indentation
 * @param parameters the module's parameters: attribute name to tensor, in order
 */
public record ScriptModule(String className, Map<String, String> arguments, String returnType, List<String> body,
    Map<String, ScriptTensor> parameters)
{
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * @throws IllegalArgumentException when a name is not a Python identifier or the body is empty
     */
    public ScriptModule
    {
        requireIdentifier(className);
        arguments.keySet().forEach(ScriptModule::requireIdentifier);
        parameters.keySet().forEach(ScriptModule::requireIdentifier);
        Objects.requireNonNull(returnType, "returnType");
        if (body.isEmpty())
        {
            throw new IllegalArgumentException("forward of " + className + " has no statement");
        }
        arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
        body = List.copyOf(body);
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /**
     * @param className the class name
     * @return a builder of a module of that class
     */
    public static Builder builder(final String className)
    {
        return new Builder(className);
    }

    /** @return the qualified name the archive gives the class. */
    public String qualifiedName()
    {
        return "__torch__." + className;
    }

    private static void requireIdentifier(final String name)
    {
        if (name == null || !IDENTIFIER.matcher(name).matches())
        {
            throw new IllegalArgumentException("'" + name + "' is not a Python identifier");
        }
    }

    /** Collects a module's parts; not thread-safe. */
    public static final class Builder
    {
        private final String className;
        private final Map<String, String> arguments = new LinkedHashMap<>();
        private final Map<String, ScriptTensor> parameters = new LinkedHashMap<>();
        private final List<String> body = new ArrayList<>();
        private String returnType = "Tensor";

        private Builder(final String className)
        {
            this.className = className;
        }

        /**
         * @param name a {@code forward} argument
         * @param type its TorchScript type
         * @return this builder
         */
        public Builder argument(final String name, final String type)
        {
            arguments.put(name, type);
            return this;
        }

        /**
         * @param type {@code forward}'s return type (default {@code Tensor})
         * @return this builder
         */
        public Builder returns(final String type)
        {
            this.returnType = type;
            return this;
        }

        /**
         * @param name   an attribute of the module
         * @param tensor its value
         * @return this builder
         */
        public Builder parameter(final String name, final ScriptTensor tensor)
        {
            parameters.put(name, tensor);
            return this;
        }

        /**
         * @param statements statements of {@code forward}'s body, in order
         * @return this builder
         */
        public Builder body(final String... statements)
        {
            body.addAll(List.of(statements));
            return this;
        }

        /** @return the module. */
        public ScriptModule build()
        {
            return new ScriptModule(className, arguments, returnType, body, parameters);
        }
    }
}
