package edu.rice.cs.hpcdata.experiment.scope;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import edu.rice.cs.hpcdata.experiment.metric.BaseMetric;
import edu.rice.cs.hpcdata.experiment.metric.MetricValue;

/** Stand-in (tests only): a root with values and no children. */
public class Scope {
    private final Map<BaseMetric, MetricValue> values = new HashMap<>();

    public void set(BaseMetric m, double v) { values.put(m, new MetricValue(v)); }
    public MetricValue getMetricValue(BaseMetric m) { return values.get(m); }
    public List<Scope> getChildren() { return new ArrayList<>(); }
}
