package io.ingot.server.access;

import io.ingot.server.FrontendOptions;
import io.ingot.server.ServerFrontends;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triton's restriction syntax and messages, from command_line_parser.cc (ParseRestrictedFeatureOption and
 * ParseGenericConfigOption) and restricted_features.h, and the exposure warning of a non-loopback bind.
 */
class RestrictedApisTest
{
    @Test
    void parsesTritonsSyntaxWithTheGrpcKeyPrefix()
    {
        final RestrictedApis http = RestrictedApis.parseHttp(List.of("model-repository,shared-memory:admin-key=s3=c",
            "inference:infer-key=i"));
        assertEquals(new RestrictedApis.Restriction("admin-key", "s3=c"), http.of(ApiCategory.MODEL_REPOSITORY));
        assertEquals(new RestrictedApis.Restriction("admin-key", "s3=c"), http.of(ApiCategory.SHARED_MEMORY));
        assertEquals("infer-key", http.of(ApiCategory.INFERENCE).header());
        assertNull(http.of(ApiCategory.HEALTH));
        final RestrictedApis grpc = RestrictedApis.parseGrpc(List.of("health:Key=v"));
        assertEquals("triton-grpc-protocol-key", grpc.of(ApiCategory.HEALTH).header());
        assertTrue(RestrictedApis.parseHttp(List.of()).isEmpty());
    }

    @Test
    void refusesWhatTritonRefusesWithItsMessages()
    {
        assertEquals("--http-restricted-api option format is '<config name>:<setting>=<value>'. Got inference",
            assertThrows(IllegalArgumentException.class, () -> RestrictedApis.parseHttp(List.of("inference")))
                .getMessage());
        assertThrows(IllegalArgumentException.class, () -> RestrictedApis.parseHttp(List.of("inference:=v")));
        assertThrows(IllegalArgumentException.class, () -> RestrictedApis.parseHttp(List.of("inference:k=")));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> RestrictedApis.parseGrpc(List.of("models:k=v"))).getMessage()
            .startsWith("unknown restricted protocol 'models'"));
        assertEquals("restricted api 'inference' can not be specified in multiple config groups",
            assertThrows(IllegalArgumentException.class, () -> RestrictedApis.parseHttp(List.of("inference:a=1",
                "health,inference:b=2"))).getMessage());
    }

    @Test
    void aNonLoopbackBindWarnsUntilModelControlAndSharedMemoryAreRestricted()
    {
        final FrontendOptions exposed = FrontendOptions.defaults().withHost("0.0.0.0");
        final String warning = ServerFrontends.warnIfExposed(exposed).orElseThrow();
        assertTrue(warning.contains("HTTP model-repository and shared-memory are unauthenticated")
            && warning.contains("gRPC model-repository and shared-memory are unauthenticated")
            && warning.contains("--http-restricted-api model-repository,shared-memory:"), warning);
        final RestrictedApis admin = RestrictedApis.parseHttp(List.of("model-repository,shared-memory:k=v"));
        final String grpcOnly = ServerFrontends.warnIfExposed(exposed.withRestrictions(admin, RestrictedApis.none()))
            .orElseThrow();
        assertFalse(grpcOnly.contains("HTTP model-repository"), grpcOnly);
        assertTrue(ServerFrontends.warnIfExposed(exposed.withRestrictions(admin,
            RestrictedApis.parseGrpc(List.of("model-repository,shared-memory:k=v")))).isEmpty());
        assertTrue(ServerFrontends.warnIfExposed(FrontendOptions.defaults()).isEmpty());
        assertTrue(ServerFrontends.warnIfExposed(FrontendOptions.defaults().withHost("::1")).isEmpty());
    }
}
