#include <nvrtc.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
double now(){struct timespec t;clock_gettime(1,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
char*S;const char*X;int B;
double C(int id,const char*x){char*s=malloc(strlen(S)+99);sprintf(s,"%s\nextern \"C\" __global__ void n%d_%d(){}\n",S,getpid(),id);nvrtcProgram p;const char*o[5]={"-arch=sm_90","-std=c++17","-default-device","-minimal",x};double t=now();nvrtcCreateProgram(&p,s,"k.cu",0,0,0);int r=nvrtcCompileProgram(p,*x?5:4,o);nvrtcDestroyProgram(&p);free(s);return r?-1e9:now()-t;}
void*W(void*a){C((int)(long)a+B,X);return 0;}
double P(const char*x){pthread_t t[16];X=x;double s=now();for(long i=0;i<16;i++)pthread_create(&t[i],0,W,(void*)i);for(int i=0;i<16;i++)pthread_join(t[i],0);B+=100;return now()-s;}
double Q(const char*x){double s=now();for(int i=0;i<16;i++)C(B+i,x);B+=100;return now()-s;}
int main(int c,char**v){void*l=dlopen("libcuda.so.1",2),*x;int d,(*F)();if(l){F=dlsym(l,"cuInit");F(0);F=dlsym(l,"cuDeviceGet");F(&d,0);F=dlsym(l,"cuDevicePrimaryCtxRetain");F(&x,d);F=dlsym(l,"cuCtxSetCurrent");F(x);}
FILE*f=fopen(v[1],"r");S=calloc(1,1<<20);if(fread(S,1,1<<20,f)<1)return 1;printf("first %.1f\n",C(99999,""));
for(int k=0;k<2;k++){const char*o=k?"-no-cache":"";double a[8],b[8];B=1000*(k+1);for(int i=0;i<8;i++)a[i]=C(B+i,o);for(int i=0;i<8;i++)b[i]=C(B+i,o);B+=100;
printf("%s new:",k?"no-cache":"default");for(int i=0;i<8;i++)printf(" %.0f",a[i]);printf(" | same again:");for(int i=0;i<8;i++)printf(" %.0f",b[i]);
printf(" | 16 new serial %.0f, 16 threads %.0f\n",Q(o),P(o));}}
