java -jar benchmarks/target/benchmarks.jar RingIntakeBenchmark -t 4 -f 2
