package io.ingot.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module rules of DESIGN.md, checked on the compiled classes of every production module (this module's test
 * class path holds them all: cli is the one module that depends on every other but the JMH benchmarks). A rule that
 * breaks fails {@code mvn verify} and names each offending class and dependency.
 *
 * <p>Classes are assigned to modules by where they were loaded from ({@code <module>/target/classes} in the reactor,
 * {@code ingot-<module>-*.jar} otherwise), so a rule follows a class that moves packages.
 */
class ArchitectureRulesTest
{
    /** The backend modules: each plugs in through the SPI and sees nothing else of Ingot. Add a new one here. */
    private static final List<String> BACKENDS = List.of("onnx", "trt", "fil", "python", "pytorch", "tensorflow");
    /** The modules above the backends. */
    private static final List<String> ABOVE_BACKENDS = List.of("server", "perf", "cli");

    private static JavaClasses classes;

    @BeforeAll
    static void importEveryModule()
    {
        classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("/generated-sources/"))
            .importPackages("io.ingot");
    }

    @Test
    void everyModuleIsOnTheClassPath()
    {
        for (final String module : every())
        {
            assertTrue(classes.stream().anyMatch(inModule(module)), "no class of module " + module + " was imported");
        }
    }

    @Test
    void noPackageDependsOnItselfThroughOthers()
    {
        // No exception: the SPI depends on the API (ModelContext.core(), for the Python backend's BLS calls;
        // ResponseSender.sendError names the API's ErrorCode), and the API names the SPI's factories only through its
        // own BackendPlugin.
        slices().matching("io.ingot.(**)").should().beFreeOfCycles()
            .check(classes);
    }

    @Test
    void theApiAndTheBackendSpiDependOnNoImplementation()
    {
        final ArchRule rule = noClasses().that(inModule("api"))
            .should().dependOnClassesThat(inModules(allBut("native-bindings", "api")))
            .because("frontends and backends compile against the API and the SPI alone; the core is found with "
                + "ServiceLoader (InferenceCoreProvider)");
        rule.check(classes);
    }

    @Test
    void theLowestModulesStandAlone()
    {
        noClasses().that(inModule("native-bindings"))
            .should().dependOnClassesThat(inModules(allBut("native-bindings")))
            .because("native-bindings is the bottom of the module graph")
            .check(classes);
        noClasses().that(inModule("agent"))
            .should().dependOnClassesThat(inModules(allBut("agent")))
            .because("the agents' duty cycle is what the core's threads, the IPC server's thread, the IPC layout's "
                + "doorbells and the Java IPC client's waits all build on")
            .check(classes);
        noClasses().that(inModule("ring"))
            .should().dependOnClassesThat(inModules(allBut("agent", "ring")))
            .because("the in-process ring is the core's intake and free lists: it knows the agents' cache-line "
                + "padding and nothing else of Ingot")
            .check(classes);
    }

    @Test
    void theIpcClientNeedsOnlyTheLayout()
    {
        noClasses().that(inModule("ipc"))
            .should().dependOnClassesThat(inModules(allBut("native-bindings", "agent", "ipc")))
            .orShould().dependOnClassesThat().resideInAnyPackage("io.ingot.server..", "io.ingot.ring..",
                "io.ingot.ipc.client..")
            .because("the shared-memory layout is shared by the IPC server and every client process: nothing in it "
                + "knows the server, the core, the in-process ring or a client")
            .check(classes);
        noClasses().that(inModule("ipc-client"))
            .should().dependOnClassesThat(inModules(allBut("agent", "ipc", "ipc-client")))
            .because("the Java IPC client runs in processes that hold no Ingot server or core: it speaks the layout "
                + "module's rings and frames, and waits with the agents' idle strategies")
            .check(classes);
    }

    @Test
    void theJavaClientKnowsNoServer()
    {
        noClasses().that(inModule("protocol"))
            .should().dependOnClassesThat(inModules(allBut("native-bindings", "api", "protocol")))
            .because("the protocol module is grpc_service.proto's messages and stubs, shared by server and client")
            .check(classes);
        noClasses().that(inModule("client"))
            .should().dependOnClassesThat(inModules(allBut("native-bindings", "api", "protocol", "client")))
            .because("the KServe v2 client runs in processes that hold no Ingot server: it speaks the protocol, "
                + "through the protocol module's messages, and nothing else of Ingot")
            .check(classes);
    }

    @Test
    void theRuntimeKnowsNoEngineAndNoTransport()
    {
        noClasses().that(inModule("runtime"))
            .should().dependOnClassesThat(inModules(allBut("native-bindings", "agent", "ring", "api", "runtime")))
            .orShould().dependOnClassesThat().resideInAnyPackage("io.netty..", "io.grpc..", "ai.onnxruntime..")
            .because("runtime holds no transport and no engine: backends plug in through the SPI, frontends use the "
                + "public API")
            .check(classes);
    }

    /**
     * The path of a request (ARCHITECTURE.md): an instance opens its responses and allocates their outputs from what
     * it was built with, and calls back into the core only to hand each finished response to one
     * {@code ResponseDelivery}. Checked three ways: the instance package names nothing of {@code io.ingot.core}; of
     * the interfaces it calls, the core implements {@code ResponseDelivery} alone; and it calls no interface through
     * which a lambda of the core's would be a callback unseen by the second check ({@code java.util.function}, and
     * the dispatch package's, where the answering of ended requests was one).
     */
    @Test
    void instancesCallBackIntoTheCoreOnlyThroughTheResponseDelivery()
    {
        final String instance = "io.ingot.instance";
        final String delivery = instance + ".ResponseDelivery";
        noClasses().that().resideInAPackage(instance)
            .should().dependOnClassesThat().resideInAPackage("io.ingot.core..")
            .because("an instance is built from HostedModel and calls the core only through ResponseDelivery")
            .check(classes);
        final Set<String> called = new TreeSet<>();
        classes.stream().filter(javaClass -> javaClass.getPackageName().equals(instance))
            .flatMap(javaClass -> javaClass.getAccessesFromSelf().stream())
            .map(access -> access.getTargetOwner())
            .filter(JavaClass::isInterface)
            .forEach(owner -> called.add(owner.getName()));
        assertTrue(called.contains(delivery), "the instance package delivers through " + delivery + ": " + called);
        noClasses().that().resideInAPackage("io.ingot.core..")
            .should().implement(DescribedPredicate.describe("an interface the instance package calls, other than "
                + "ResponseDelivery", (JavaClass type) -> called.contains(type.getName())
                    && !type.getName().equals(delivery)))
            .because("the instance package calls back into the core through ResponseDelivery alone")
            .check(classes);
        noClasses().that().resideInAPackage(instance)
            .should().callMethodWhere(DescribedPredicate.describe("the target is an interface of java.util.function "
                + "or io.ingot.dispatch", call -> call.getTargetOwner().isInterface()
                    && (call.getTargetOwner().getPackageName().equals("java.util.function")
                        || call.getTargetOwner().getPackageName().equals("io.ingot.dispatch"))))
            .because("a lambda of the core's passed as such an interface would be a second way back into the core")
            .check(classes);
    }

    @Test
    void theCoreAndTheIpcServerReadTimeOnlyThroughTheInjectedClock()
    {
        final DescribedPredicate<JavaAccess<?>> systemClock = DescribedPredicate.describe(
            "System.nanoTime() or System.currentTimeMillis()", access ->
                access.getTargetOwner().isEquivalentTo(System.class)
                    && (access.getName().equals("nanoTime") || access.getName().equals("currentTimeMillis")));
        noClasses().that(inModule("runtime")).and().resideOutsideOfPackage("io.ingot.backend.builtin..")
            .or().resideInAPackage("io.ingot.server.ipc..")
            .should().accessTargetWhere(systemClock)
            .because("the core, its timekeeper and the shared-memory server read one injected clock "
                + "(io.ingot.time.NanoClock: CoreOptions.clock, InferenceCore.clock), whose SYSTEM implementation "
                + "alone reads the system's; the built-in test backends are engines, whose delays are real time")
            .check(classes);
    }

    @Test
    void theDisruptorStaysABaseline()
    {
        noClasses().should().dependOnClassesThat().resideInAPackage("com.lmax.disruptor..")
            .because("the LMAX Disruptor is a measured baseline of the intake ring, in the benchmarks module only "
                + "(docs/benchmarks/ring-choice.md); the core runs the ring module's RequestRing")
            .check(classes);
    }

    @Test
    void backendsNeverImportEachOtherTheRuntimeOrAFrontend()
    {
        for (final String backend : BACKENDS)
        {
            final List<String> forbidden = new ArrayList<>(BACKENDS);
            forbidden.remove(backend);
            forbidden.add("runtime");
            forbidden.add("ipc-client");
            forbidden.addAll(ABOVE_BACKENDS);
            noClasses().that(inModule(backend))
                .should().dependOnClassesThat(inModules(forbidden.toArray(String[]::new)))
                .because("a backend sees the backend SPI, the native bindings, the agents and the shared-memory "
                    + "layout (never the Java IPC client), nothing else of Ingot")
                .check(classes);
        }
    }

    @Test
    void frontendsUseOnlyThePublicApi()
    {
        noClasses().that(inModule("server"))
            .should().dependOnClassesThat(inModules(allBut("native-bindings", "agent", "ipc", "api", "protocol",
                "server")))
            .because("the HTTP, gRPC and shared-memory frontends serve any InferenceCore through the in-process API "
                + "(gRPC's messages are the protocol module's)")
            .check(classes);
    }

    @Test
    void onlyTheNativeBindingsAndTheEnginesOwnBindingsBindNativeSymbols()
    {
        noClasses().that(DescribedPredicate.not(inModule("native-bindings")))
            .and().resideOutsideOfPackages("io.ingot.trt.shim..", "io.ingot.fil.bundled..", "io.ingot.fil.xgboost..",
                "io.ingot.fil.lightgbm..", "io.ingot.tensorflow.capi..", "io.ingot.onnx.capi..")
            .should().dependOnClassesThat().haveFullyQualifiedName("java.lang.foreign.Linker")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.lang.foreign.SymbolLookup")
            .because("every native call goes through native-bindings (CUDA, cuBLAS, libc), except a backend binding "
                + "its own engine library (TensorRT's shim; XGBoost's and LightGBM's C APIs, loaded from their Maven"
                + " jars by io.ingot.fil.bundled; TensorFlow's and ONNX Runtime's C APIs)")
            .check(classes);
    }

    /** @return every production module, bottom up. */
    private static List<String> every()
    {
        final List<String> modules = new ArrayList<>(List.of("native-bindings", "agent", "ring", "ipc", "ipc-client",
            "api", "protocol", "client", "runtime"));
        modules.addAll(BACKENDS);
        modules.addAll(ABOVE_BACKENDS);
        return modules;
    }

    /**
     * @param allowed modules a rule permits
     * @return every other module
     */
    private static String[] allBut(final String... allowed)
    {
        final List<String> others = every();
        others.removeAll(List.of(allowed));
        return others.toArray(String[]::new);
    }

    /**
     * @param module a module folder name
     * @return the classes compiled from that module
     */
    static DescribedPredicate<JavaClass> inModule(final String module)
    {
        return inModules(module);
    }

    /**
     * @param modules module folder names
     * @return the classes compiled from any of them
     */
    static DescribedPredicate<JavaClass> inModules(final String... modules)
    {
        // The Java client's folder is clients/java; every other module's is its name. A jar's name is the artifact
        // and then the version, which starts with a digit, so that ingot-ipc-0.1.0.jar is not ingot-ipc-client's.
        final List<String> folders = new ArrayList<>();
        final StringBuilder jars = new StringBuilder(".*/ingot-(");
        for (final String module : modules)
        {
            folders.add("/" + (module.equals("client") ? "clients/java" : module) + "/target/classes/");
            jars.append(folders.size() > 1 ? "|" : "").append(Pattern.quote(module));
        }
        final Pattern jar = Pattern.compile(jars.append(")-\\d[^/]*\\.jar.*").toString());
        return DescribedPredicate.describe("in module " + String.join(" or ", modules), javaClass ->
        {
            final String location = javaClass.getSource().map(source -> source.getUri().toString()).orElse("");
            return folders.stream().anyMatch(location::contains) || jar.matcher(location).matches();
        });
    }
}
