//! The whole generated file for `kernel: rows`.  The header comment, the
//! types, the helpers, the op's row functions and the kernels are filled in
//! by gen/rows.c.
{{header}}

// Elements are {{dtype}} in and {{out_dtype}} out; the statistics are f32.
typedef {{t_ctype}} T;
typedef {{out_ctype}} Out;
{{#weight}}
typedef {{w_ctype}} W;  // {{w_what}} ({{w_dtype}})
{{/weight}}
{{#labels}}
typedef {{label_ctype}} Label;  // {{label_dtype}}
{{/labels}}
typedef float Acc;
typedef unsigned long long Index;

{{constants}}

// One call's operands, passed by value (the launcher fills the same struct).
struct Rows {
    const T *x;          // rows x cols, rows x_pitch elements apart
    Out *y;              // {{y_doc}}
    const {{w_type}} *weight;  // {{weight_doc}}
    const {{w_type}} *bias;    // {{bias_doc}}
    const {{label_type}} *labels;  // {{labels_doc}}
    Out *loss;           // {{loss_doc}}
    float *lse;          // {{lse_doc}}
    Index rows, cols, x_pitch, y_pitch;
    long long ignore_index;  // {{ignore_doc}}
    float eps;           // {{eps_doc}}
    unsigned int aligned;  // the *_ALIGNED bits of the arrays whose rows keep whole vectors aligned
};

{{helpers}}

{{kernels}}
