package edu.rice.cs.hpcdata.experiment;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import edu.rice.cs.hpcdata.experiment.metric.BaseMetric;
import edu.rice.cs.hpcdata.experiment.metric.HierarchicalMetric;
import edu.rice.cs.hpcdata.experiment.scope.RootScopeType;
import edu.rice.cs.hpcdata.experiment.scope.Scope;

/** The reader matrix's stand-in for hpcdata's Experiment (tests/reader_matrix.test.sh):
 *  open() does what the plan in HV_STUB_PLAN says for the database's path
 *  ("REGEX=BEHAVIOUR,...", golden/readers/stub.py), so that ViewerBatch.java's
 *  classification of every outcome is tried without hpcviewer. */
public class Experiment {
    private final List<BaseMetric> metrics = new ArrayList<>();
    private Scope root;

    static String behaviour(String path) {
        String plan = System.getenv("HV_STUB_PLAN");
        if (plan == null) return "accept";
        for (String part : plan.split(",")) {
            int eq = part.lastIndexOf('=');
            if (eq > 0 && Pattern.compile(part.substring(0, eq)).matcher(path).find()) return part.substring(eq + 1);
        }
        return "accept";
    }

    static int deep(int n) { return deep(n + 1) + 1; }

    public void open(LocalDatabaseRepresentation db) throws Exception {
        String b = behaviour(db.getFile().getPath());
        switch (b) {
        case "refuse": throw new IllegalStateException("stub: not a database I read");
        case "io": throw new IOException("stub: cannot read meta.db");
        case "raise": { Object o = null; o.hashCode(); break; }
        case "index": { int[] a = new int[1]; a[a.length + 1] = 0; break; }
        case "stack": deep(0); break;
        case "die": Runtime.getRuntime().halt(134); break;
        case "hang": for (;;) { Math.sqrt(Math.random()); }
        default: break;
        }
        root = new Scope();
        if (b.equals("misread")) {
            // The first inclusive statistic at the root, decoded wrong.
            HierarchicalMetric m = new HierarchicalMetric(8, "cpu-time: Sum (I)", "INCLUSIVE");
            metrics.add(m);
            root.set(m, 1.5);
        }
    }

    public List<BaseMetric> getMetricList() { return metrics; }

    public Scope getRootScope(RootScopeType type) { return root; }
}
