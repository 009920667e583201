java -jar benchmarks/target/benchmarks.jar AssemblyBenchmark -f 1 -i 10
