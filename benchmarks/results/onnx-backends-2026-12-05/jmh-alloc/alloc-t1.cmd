java -jar benchmarks/target/benchmarks.jar IngotPathsBenchmark|OverheadBenchmark -t 1 -p pipeline=ingot -p idle=BLOCKING -bm avgt -tu us -prof gc
