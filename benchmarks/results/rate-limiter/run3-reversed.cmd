java -jar benchmarks/target/benchmarks.jar RateLimiterBenchmark -t 1 -p limiter=on-one-resource,on-no-resources,off
