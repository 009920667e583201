java -jar benchmarks/target/benchmarks.jar IntakeBenchmark -t 2
