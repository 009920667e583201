java -jar benchmarks/target/benchmarks.jar RateLimiterBenchmark -t 1
