java -jar benchmarks/target/benchmarks.jar RingIntakeBenchmark -t 1 -f 2
