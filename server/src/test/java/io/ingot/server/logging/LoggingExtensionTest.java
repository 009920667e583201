package io.ingot.server.logging;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.ingot.protocol.grpc.LogSettingsRequest;
import io.ingot.protocol.grpc.LogSettingsResponse;
import io.ingot.server.testing.ServingFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET/POST /v2/logging} and gRPC {@code LogSettings} with Triton's keys, types and messages (server
 * src/http_server.cc HandleLogging, src/grpc/grpc_server.cc LogSettings; docs/protocol/extension_logging.md).
 * Isolated: it changes the process's logging, and puts it back.
 */
@Isolated
class LoggingExtensionTest
{
    private static ServingFixture server;

    @BeforeAll
    static void start()
    {
        server = new ServingFixture();
    }

    @AfterAll
    static void stop()
    {
        LogSettings.global().update(new LogSettings.Change(true, true, true, 0, LogSettings.Format.DEFAULT));
        server.close();
    }

    private static JsonObject json(final HttpResponse<byte[]> response)
    {
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(200, response.statusCode(), text);
        return JsonParser.parseString(text).getAsJsonObject();
    }

    private static String error(final HttpResponse<byte[]> response, final int status)
    {
        final String text = new String(response.body(), StandardCharsets.UTF_8);
        assertEquals(status, response.statusCode(), text);
        return JsonParser.parseString(text).getAsJsonObject().get("error").getAsString();
    }

    @Test
    void httpGetsAndSetsTritonsSettings()
    {
        final JsonObject before = json(server.get("/v2/logging"));
        assertEquals("[log_file, log_info, log_warning, log_error, log_verbose_level, log_format]",
            before.keySet().toString());
        final JsonObject after = json(server.post("/v2/logging", "{\"log_info\":false,\"log_verbose_level\":2,"
            + "\"log_format\":\"ISO8601\",\"log_warning\":null}"));
        assertEquals(false, after.get("log_info").getAsBoolean());
        assertEquals(true, after.get("log_warning").getAsBoolean(), "null leaves a setting as it is");
        assertEquals(2, after.get("log_verbose_level").getAsInt());
        assertEquals("ISO8601", after.get("log_format").getAsString());
        assertEquals(after, json(server.get("/v2/logging")));
        json(server.post("/v2/logging", "{\"log_info\":true,\"log_verbose_level\":0,\"log_format\":\"default\"}"));
    }

    @Test
    void httpRefusalsAreTritonsAndChangeNothing()
    {
        final JsonObject before = json(server.get("/v2/logging"));
        assertEquals("log file location can not be updated through network protocol",
            error(server.post("/v2/logging", "{\"log_file\":\"/tmp/x\"}"), 501));
        assertTrue(error(server.post("/v2/logging", "{\"log_error\":\"yes\"}"), 400)
            .startsWith("attempt to access JSON non-boolean as boolean"));
        assertTrue(error(server.post("/v2/logging", "{\"log_verbose_level\":-1}"), 400)
            .startsWith("attempt to access JSON non-unsigned-integer as unsigned-integer"));
        // Triton answers an unknown format UNAVAILABLE (503), with its own flag name in the text.
        assertTrue(error(server.post("/v2/logging", "{\"log_info\":false,\"log_format\":\"json\"}"), 503)
            .startsWith("invalid argument for --log_format, got: json"));
        assertEquals(before, json(server.get("/v2/logging")), "a refused request changes nothing");
        assertEquals(405, server.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.httpUrl()
            + "/v2/logging")).DELETE().build()).statusCode());
    }

    private static LogSettingsRequest.SettingValue bool(final boolean value)
    {
        return LogSettingsRequest.SettingValue.newBuilder().setBoolParam(value).build();
    }

    @Test
    void grpcUsesTheSameSettingsTypedAsTritonsClientsSendThem()
    {
        final LogSettingsResponse response = server.grpc().logSettings(LogSettingsRequest.newBuilder()
            .putSettings("log_warning", bool(false))
            .putSettings("log_verbose_level", LogSettingsRequest.SettingValue.newBuilder().setUint32Param(1).build())
            .build());
        assertEquals(false, response.getSettingsOrThrow("log_warning").getBoolParam());
        assertEquals(1, response.getSettingsOrThrow("log_verbose_level").getUint32Param());
        assertEquals("", response.getSettingsOrThrow("log_file").getStringParam());
        assertEquals(false, json(server.get("/v2/logging")).get("log_warning").getAsBoolean(),
            "one setting for both protocols");
        server.grpc().logSettings(LogSettingsRequest.newBuilder().putSettings("log_warning", bool(true))
            .putSettings("log_verbose_level", LogSettingsRequest.SettingValue.newBuilder().setUint32Param(0).build())
            .build());

        final StatusRuntimeException typed = assertThrows(StatusRuntimeException.class, () -> server.grpc()
            .logSettings(LogSettingsRequest.newBuilder().putSettings("log_info", LogSettingsRequest.SettingValue
                .newBuilder().setStringParam("true").build()).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, typed.getStatus().getCode());
        assertEquals("expect boolean for 'log_info'", typed.getStatus().getDescription());
        final StatusRuntimeException file = assertThrows(StatusRuntimeException.class, () -> server.grpc()
            .logSettings(LogSettingsRequest.newBuilder().putSettings("log_file", LogSettingsRequest.SettingValue
                .newBuilder().setStringParam("x").build()).build()));
        assertEquals(Status.Code.UNIMPLEMENTED, file.getStatus().getCode());
    }

    @Test
    void serverMetadataAdvertisesLogging()
    {
        assertTrue(json(server.get("/v2")).getAsJsonArray("extensions").toString().contains("\"logging\""));
    }
}
