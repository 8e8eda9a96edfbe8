#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
double now(){struct timespec t;clock_gettime(1,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
double C(char*s,char*x){nvrtcProgram p;const char*o[9]={"-arch=sm_90","-std=c++17","-default-device"};int n=3;char b[200];strcpy(b,x);for(char*t=strtok(b," ");t;t=strtok(0," "))o[n++]=t;double t=now();nvrtcCreateProgram(&p,s,"k.cu",0,0,0);int r=nvrtcCompileProgram(p,n,o);size_t z;nvrtcGetCUBINSize(p,&z);char*c=malloc(z);nvrtcGetCUBIN(p,c);nvrtcDestroyProgram(&p);return r?-1:now()-t;}
int main(int c,char**v){char e[99],*V[]={"","","-no-cache","-no-cache","-no-cache -minimal","-no-cache -minimal","-no-cache -minimal -split-compile=0"};C("extern \"C\" __global__ void w(){}","-no-cache");
for(int i=0;i<c;i++){char*s=e;if(i){FILE*f=fopen(v[i],"r");s=calloc(1,1<<20);fread(s,1,1<<20,f);}else sprintf(e,"extern \"C\" __global__ void e%d(){}",getpid());
printf("%-26s",i?strrchr(v[i],'/')+1:"empty");for(int k=0;k<7;k++)printf(" %6.1f",C(s,V[k]));puts("");}}
