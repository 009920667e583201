package io.ingot.repository;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a repository scan found: the models ready to load, the models that failed (one failing never stops the
 * others), and warnings worth logging (ignored version directories, missing specific versions).
 *
 * @param models   the prepared models, by ascending name
 * @param failures model name to the reason it cannot be loaded, by ascending name
 * @param warnings messages about things that were skipped, in scan order
 */
public record ScanResult(List<PreparedModel> models, Map<String, String> failures, List<String> warnings)
{
    /**
     * @param models   the prepared models; copied
     * @param failures the failed models; copied
     * @param warnings the warnings; copied
     */
    public ScanResult
    {
        models = List.copyOf(models);
        failures = Collections.unmodifiableMap(new TreeMap<>(failures));
        warnings = List.copyOf(warnings);
    }

    /**
     * @param name a model name
     * @return the prepared model of that name, if it was prepared
     */
    public Optional<PreparedModel> model(final String name)
    {
        return models.stream().filter(model -> model.name().equals(name)).findFirst();
    }
}
