package io.ingot.server.grpc;

import io.ingot.api.ErrorCode;
import io.ingot.api.InferenceException;
import io.ingot.server.logging.LogSettings;
import io.ingot.protocol.grpc.LogSettingsRequest;
import io.ingot.protocol.grpc.LogSettingsResponse;

import java.util.Map;

/**
 * The gRPC {@code LogSettings} RPC, Triton's logging extension (server src/grpc/grpc_server.cc): the same settings
 * as {@code /v2/logging}, typed as Triton's clients send them ({@code bool_param} for {@code log_info},
 * {@code log_warning}, {@code log_error}; {@code uint32_param} for {@code log_verbose_level}; {@code string_param}
 * for {@code log_format}), with Triton's messages. Any {@code log_file} entry is refused (UNIMPLEMENTED). Nothing
 * changes when any value is refused.
 */
final class GrpcLogSettings
{
    private GrpcLogSettings()
    {
    }

    static LogSettingsResponse answer(final LogSettingsRequest request)
    {
        final LogSettings settings = LogSettings.global();
        final Map<String, LogSettingsRequest.SettingValue> values = request.getSettingsMap();
        final LogSettings.Snapshot now = values.isEmpty() ? settings.current() : settings.update(change(values));
        return LogSettingsResponse.newBuilder()
            .putSettings("log_file", string(now.logFile()))
            .putSettings("log_info", bool(now.info()))
            .putSettings("log_warning", bool(now.warning()))
            .putSettings("log_error", bool(now.error()))
            .putSettings("log_verbose_level", LogSettingsResponse.SettingValue.newBuilder()
                .setUint32Param(now.verboseLevel()).build())
            .putSettings("log_format", string(now.format().settingName()))
            .build();
    }

    private static LogSettings.Change change(final Map<String, LogSettingsRequest.SettingValue> values)
    {
        if (values.containsKey("log_file"))
        {
            throw new InferenceException(ErrorCode.UNSUPPORTED, "log file location can not be updated through "
                + "network protocol");
        }
        Integer verbose = null;
        final LogSettingsRequest.SettingValue level = values.get("log_verbose_level");
        if (level != null)
        {
            if (level.getParameterChoiceCase() != LogSettingsRequest.SettingValue.ParameterChoiceCase.UINT32_PARAM)
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "expect int32 for 'log_verbose_level' (it is sent"
                    + " as uint32_param, got " + level.getParameterChoiceCase() + ")");
            }
            // Triton keeps the level in an int32; larger values log everything, as they do there.
            verbose = level.getUint32Param() < 0 ? Integer.MAX_VALUE : level.getUint32Param();
        }
        LogSettings.Format format = null;
        final LogSettingsRequest.SettingValue formatValue = values.get("log_format");
        if (formatValue != null)
        {
            if (formatValue.getParameterChoiceCase()
                != LogSettingsRequest.SettingValue.ParameterChoiceCase.STRING_PARAM)
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "expect string for 'log_format'");
            }
            format = LogSettings.Format.of(formatValue.getStringParam());
            if (format == null)
            {
                throw new InferenceException(ErrorCode.INVALID_ARG, "invalid argument for log_format, got: "
                    + formatValue.getStringParam() + " (expected \"default\" or \"ISO8601\")");
            }
        }
        return new LogSettings.Change(bool(values, "log_info"), bool(values, "log_warning"),
            bool(values, "log_error"), verbose, format);
    }

    private static Boolean bool(final Map<String, LogSettingsRequest.SettingValue> values, final String key)
    {
        final LogSettingsRequest.SettingValue value = values.get(key);
        if (value == null)
        {
            return null;
        }
        if (value.getParameterChoiceCase() != LogSettingsRequest.SettingValue.ParameterChoiceCase.BOOL_PARAM)
        {
            throw new InferenceException(ErrorCode.INVALID_ARG, "expect boolean for '" + key + "'");
        }
        return value.getBoolParam();
    }

    private static LogSettingsResponse.SettingValue bool(final boolean value)
    {
        return LogSettingsResponse.SettingValue.newBuilder().setBoolParam(value).build();
    }

    private static LogSettingsResponse.SettingValue string(final String value)
    {
        return LogSettingsResponse.SettingValue.newBuilder().setStringParam(value).build();
    }
}
