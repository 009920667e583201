package io.ingot.server.grpc;

import io.ingot.api.BatchStatistics;
import io.ingot.api.InferStatistics;
import io.ingot.api.ModelMetadata;
import io.ingot.api.StatDuration;
import io.ingot.api.TensorMetadata;
import io.ingot.protocol.grpc.InferBatchStatistics;
import io.ingot.protocol.grpc.ModelMetadataResponse;
import io.ingot.protocol.grpc.ModelStatistics;
import io.ingot.protocol.grpc.StatisticDuration;

/** Converts the core's metadata and statistics records into their gRPC messages. */
public final class GrpcStatisticsMapper
{
    private GrpcStatisticsMapper()
    {
    }

    /**
     * @param stats a model version's statistics
     * @return the {@code ModelStatistics} message
     */
    public static ModelStatistics statistics(final io.ingot.api.ModelStatistics stats)
    {
        final InferStatistics infer = stats.inferenceStats();
        final ModelStatistics.Builder message = ModelStatistics.newBuilder()
            .setName(stats.name())
            .setVersion(stats.version())
            .setLastInference(stats.lastInference())
            .setInferenceCount(stats.inferenceCount())
            .setExecutionCount(stats.executionCount())
            .setInferenceStats(io.ingot.protocol.grpc.InferStatistics.newBuilder()
                .setSuccess(duration(infer.success()))
                .setFail(duration(infer.fail()))
                .setQueue(duration(infer.queue()))
                .setComputeInput(duration(infer.computeInput()))
                .setComputeInfer(duration(infer.computeInfer()))
                .setComputeOutput(duration(infer.computeOutput()))
                .setCacheHit(duration(infer.cacheHit()))
                .setCacheMiss(duration(infer.cacheMiss())));
        for (final BatchStatistics batch : stats.batchStats())
        {
            message.addBatchStats(InferBatchStatistics.newBuilder()
                .setBatchSize(batch.batchSize())
                .setComputeInput(duration(batch.computeInput()))
                .setComputeInfer(duration(batch.computeInfer()))
                .setComputeOutput(duration(batch.computeOutput())));
        }
        return message.build();
    }

    /**
     * @param metadata a model's metadata
     * @return the {@code ModelMetadataResponse} message
     */
    public static ModelMetadataResponse metadata(final ModelMetadata metadata)
    {
        final ModelMetadataResponse.Builder message = ModelMetadataResponse.newBuilder()
            .setName(metadata.name())
            .addAllVersions(metadata.versions())
            .setPlatform(metadata.platform());
        for (final TensorMetadata input : metadata.inputs())
        {
            message.addInputs(tensor(input));
        }
        for (final TensorMetadata output : metadata.outputs())
        {
            message.addOutputs(tensor(output));
        }
        return message.build();
    }

    private static ModelMetadataResponse.TensorMetadata tensor(final TensorMetadata tensor)
    {
        return ModelMetadataResponse.TensorMetadata.newBuilder()
            .setName(tensor.name())
            .setDatatype(tensor.dataType().wireName())
            .addAllShape(tensor.shape())
            .build();
    }

    private static StatisticDuration duration(final StatDuration duration)
    {
        final StatDuration value = duration == null ? StatDuration.ZERO : duration;
        return StatisticDuration.newBuilder().setCount(value.count()).setNs(value.ns()).build();
    }
}
